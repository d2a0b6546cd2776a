import { describe, expect, it } from 'vitest';
import { CARD_NUMBER_REDACTED, redactCardNumbers, redactedPaths } from '../../../server/domain/guard/redact-card-numbers.js';
import { isProviderIdentifier } from '../../../server/domain/invoices/source-record.js';

describe('redacting card numbers from an imported record', () => {
  it('when text fields at any depth hold card numbers, then each whole field becomes the marker and its path is named', () => {
    const record = {
      Id: '1001',
      DocNumber: 'INV-1001',
      PrivateNote: 'Paid by 4111 1111 1111 1111, exp 12/30',
      Line: [
        { Description: 'Widget', Amount: 4111111111111111 },
        { Description: 'card 5555-5555-5555-4444', SalesItemLineDetail: { ItemRef: { value: '2', name: '378282246310005' } } },
      ],
      CustomField: [{ Name: 'Purchase Order', StringValue: 'PO 2025-01-10' }],
      '4000056655665556': { note: 'a key that is a card number' },
    };
    const { value, paths } = redactCardNumbers(record, { root: 'source' });
    expect(paths).toStrictEqual([
      'source.PrivateNote',
      'source.Line[1].Description',
      'source.Line[1].SalesItemLineDetail.ItemRef.name',
      `source.${CARD_NUMBER_REDACTED}`,
    ]);
    expect(value).toStrictEqual({
      Id: '1001',
      DocNumber: 'INV-1001',
      PrivateNote: CARD_NUMBER_REDACTED,
      Line: [
        // Numbers are amounts, not text: never redacted (docs/decisions.md).
        { Description: 'Widget', Amount: 4111111111111111 },
        { Description: CARD_NUMBER_REDACTED, SalesItemLineDetail: { ItemRef: { value: '2', name: CARD_NUMBER_REDACTED } } },
      ],
      CustomField: [{ Name: 'Purchase Order', StringValue: 'PO 2025-01-10' }],
      [CARD_NUMBER_REDACTED]: { note: 'a key that is a card number' },
    });
    expect(JSON.stringify(value)).not.toMatch(/4111 1111|5555-5555|378282246310005|4000056655665556/);
    // The mapper finds the same fields again in what is stored.
    expect(redactedPaths(value, 'source')).toStrictEqual(paths);
  });

  it('when nothing holds a card number, then the record itself comes back and no path is named', () => {
    const record = { Id: '1', Line: [{ Description: 'Call +1 415-555-0132 about order INV-2026-000123' }] };
    const result = redactCardNumbers(record);
    expect(result.value).toBe(record);
    expect(result.paths).toStrictEqual([]);
  });

  it('when two property names of one object hold card numbers, then both are kept under distinct marker names', () => {
    const { value, paths } = redactCardNumbers({ '4111111111111111': 1, '5555555555554444': 2 });
    expect(value).toStrictEqual({ [CARD_NUMBER_REDACTED]: 1, [`${CARD_NUMBER_REDACTED} ##`]: 2 });
    expect(paths).toStrictEqual([CARD_NUMBER_REDACTED, `${CARD_NUMBER_REDACTED} ##`]);
  });

  it('when the marker is checked by the detector, then it is not card data itself', () => {
    expect(redactCardNumbers(CARD_NUMBER_REDACTED).paths).toStrictEqual([]);
  });

  it('when a redacted record has a __proto__ key, then it stays an own property and no prototype changes', () => {
    const record = JSON.parse('{"__proto__": {"polluted": true}, "Note": "4111 1111 1111 1111"}');
    const { value } = redactCardNumbers(record);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value as object)).toStrictEqual(['__proto__', 'Note']);
    expect(JSON.stringify(value)).toBe(`{"__proto__":{"polluted":true},"Note":"${CARD_NUMBER_REDACTED}"}`);
  });

  it('when identifiers the source assigns look like card numbers, then the import keeps them and still redacts the text beside them', () => {
    const pan = '4111111111111111';
    const record = {
      Id: pan,
      SyncToken: pan,
      CustomerRef: { value: pan, name: `Customer ${pan}` },
      CustomerMemo: { value: `memo ${pan}` },
      CustomField: [{ DefinitionId: pan, StringValue: pan }],
    };
    const { value, paths } = redactCardNumbers(record, { root: 'source', isIdentifier: isProviderIdentifier });
    expect(value).toStrictEqual({
      Id: pan,
      SyncToken: pan,
      CustomerRef: { value: pan, name: CARD_NUMBER_REDACTED },
      CustomerMemo: { value: CARD_NUMBER_REDACTED },
      CustomField: [{ DefinitionId: pan, StringValue: CARD_NUMBER_REDACTED }],
    });
    expect(paths).toStrictEqual(['source.CustomerRef.name', 'source.CustomerMemo.value', 'source.CustomField[0].StringValue']);
  });
});
