import { describe, expect, it } from 'vitest';
import { enrichmentReferenceOf } from '../../../server/domain/payment-reports/enrichment-reference.js';

describe('enrichmentRequestId: which kind of id it holds', () => {
  it('when it is a request id, then it names an inline enrichment, unchanged', () => {
    expect(enrichmentReferenceOf('req_0123456789abcdef0123456789abcdef')).toEqual({
      kind: 'inline_enrichment',
      requestId: 'req_0123456789abcdef0123456789abcdef',
    });
  });

  it('when it is a UUID in any case, then it names a saved preparation, lower-cased', () => {
    expect(enrichmentReferenceOf('0E6B6C3A-7D2C-4F5E-9A8B-1C2D3E4F5A6B')).toEqual({
      kind: 'preparation',
      preparationId: '0e6b6c3a-7d2c-4f5e-9a8b-1c2d3e4f5a6b',
    });
  });

  it('when it is neither, then it names nothing', () => {
    for (const value of ['', 'req', '0e6b6c3a-7d2c-4f5e-9a8b-1c2d3e4f5a6', 'pi_123', '0e6b6c3a7d2c4f5e9a8b1c2d3e4f5a6b'])
      expect(enrichmentReferenceOf(value)).toBeUndefined();
  });
});
