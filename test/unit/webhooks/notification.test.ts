import braintree from 'braintree';
import { describe, expect, it } from 'vitest';
import { InvalidNotification, parseNotification } from '../../../server/domain/webhooks/gwa/notification.js';
import { parseXml, XmlError } from '../../../server/domain/webhooks/gwa/xml.js';

const gateway = new braintree.BraintreeGateway({
  environment: braintree.Environment.Sandbox,
  merchantId: 'm',
  publicKey: 'pub',
  privateKey: 'priv',
});
const payloadOf = (kind: string, id: string) =>
  (gateway.webhookTesting.sampleNotification(kind as braintree.WebhookNotificationKind, id) as unknown as { bt_payload: string })
    .bt_payload;
const encode = (xml: string) => Buffer.from(xml).toString('base64');

describe('gwa notification XML', () => {
  it("when the provider's SDK builds a settled notification, then kind, timestamp and the transaction are read", () => {
    const n = parseNotification(payloadOf('transaction_settled', 'abc123'));
    expect(n).toMatchObject({
      kind: 'transaction_settled',
      sourceMerchantId: null,
      subject: {
        type: 'transaction',
        id: 'abc123',
        transaction: {
          id: 'abc123',
          status: 'settled',
          type: 'sale',
          amount: '100',
          currencyIsoCode: 'USD',
          merchantAccountId: expect.any(String),
          refundedTransactionId: null,
        },
      },
    });
    expect(n.timestamp.getUTCMilliseconds()).toBe(0);
  });

  it.each([
    ['check', 'check', null],
    ['dispute_opened', 'dispute', 'd1'],
    ['disbursement', 'disbursement', 'd1'],
    ['subscription_canceled', 'subscription', 'd1'],
  ])('when a %s notification arrives, then its subject type and id are read', (kind, type, id) => {
    const n = parseNotification(payloadOf(kind, 'd1'));
    expect(n.subject).toMatchObject({ type, id, transaction: null });
  });

  it('when the refund-failed sample carries card fields, then only the listed transaction fields are kept', () => {
    const n = parseNotification(payloadOf('refund_failed', 'r1'));
    expect(JSON.stringify(n)).not.toContain('1234560000001234');
    expect(n.subject.transaction).toMatchObject({ id: 'r1', status: 'processor_declined', refundedTransactionId: '1' });
  });

  it.each([
    ['a DOCTYPE', '<!DOCTYPE n [<!ENTITY a "b">]><notification/>'],
    ['an undeclared entity', '<notification><kind>&a;</kind></notification>'],
    ['CDATA', '<notification><kind><![CDATA[check]]></kind></notification>'],
    ['a comment', '<notification><!-- x --></notification>'],
    ['a processing instruction', '<notification><?pi x?></notification>'],
    ['a mismatched tag', '<notification><kind>check</kinds></notification>'],
    ['two roots', '<a/><b/>'],
    ['an unclosed root', '<notification>'],
    ['a bare ampersand', '<n>a & b</n>'],
    ['text outside the root', 'x<n/>'],
  ])('when the XML has %s, then it is refused', (_name, xml) => {
    expect(() => parseXml(xml)).toThrow(XmlError);
  });

  it('when the document is too deep, too large or has too many elements, then it is refused', () => {
    expect(() => parseXml(`${'<a>'.repeat(17)}${'</a>'.repeat(17)}`)).toThrow(/deeper/);
    expect(() => parseXml(`<a>${'x'.repeat(48 * 1024)}</a>`)).toThrow(/larger/);
    expect(() => parseXml(`<a>${'<b/>'.repeat(2001)}</a>`)).toThrow(/elements/);
    expect(parseXml(`${'<a>'.repeat(16)}${'</a>'.repeat(16)}`).name).toBe('a');
  });

  it('when the XML uses predefined entities, character references and attributes, then they are decoded', () => {
    const root = parseXml(`<?xml version="1.0" encoding="UTF-8"?><n a='1' b="x&amp;y"><t>&lt;&#65;&#x42;&gt;</t><e nil="true"/></n>`);
    expect(root.attributes).toEqual({ a: '1', b: 'x&y' });
    expect(root.children[0]!.text).toBe('<AB>');
    expect(root.children[1]!.attributes.nil).toBe('true');
  });

  it.each([
    ['no kind', '<notification><timestamp>2026-01-01T00:00:00Z</timestamp><subject><check>true</check></subject></notification>'],
    [
      'a bad timestamp',
      '<notification><timestamp>yesterday</timestamp><kind>check</kind><subject><check>true</check></subject></notification>',
    ],
    ['no subject', '<notification><timestamp>2026-01-01T00:00:00Z</timestamp><kind>check</kind></notification>'],
    ['another root', '<other/>'],
    [
      'a transaction without id',
      '<notification><timestamp>2026-01-01T00:00:00Z</timestamp><kind>transaction_settled</kind><subject><transaction><amount>1</amount></transaction></subject></notification>',
    ],
  ])('when the notification has %s, then it is invalid', (_name, xml) => {
    expect(() => parseNotification(encode(xml))).toThrow(InvalidNotification);
  });
});
