import { describe, expect, it } from 'vitest';
import type { ZodTypeAny } from 'zod';
import { gwcInvoice50 } from '../../../bench/bodies.js';
import { contract } from '../../../contract/index.js';
import { enrichInline, type EnrichmentRequest, type Provider } from '../../../server/domain/enrichment/index.js';
import { fastSafeParse } from '../../../server/validation/compile-schema.js';
import { goldenCases } from './support/golden-cases.js';

const bodySchemas: Record<Provider, ZodTypeAny> = {
  gwa: contract.gwa.enrichTransaction.body as ZodTypeAny,
  gwb: contract.gwb.enrichOrder.body as ZodTypeAny,
  gwc: contract.gwc.enrichPaymentIntent.body as ZodTypeAny,
};

/**
 * What the inline endpoints compute for a body, as the server computes it: the
 * compiled body check (zod's issues on a refusal), then the pure core's data or
 * issues. Pinned to a committed fixture, so a faster implementation of either
 * must answer every case exactly as before (`vitest -u` rewrites the fixture:
 * only ever on purpose, for a change of behaviour).
 */
describe('inline enrichment golden outputs', () => {
  it('when the generated bodies are validated and enriched, then every answer equals the committed one', async () => {
    const cases = [...goldenCases(), { provider: 'gwc' as const, body: gwcInvoice50() }];
    const parsers = { gwa: fastSafeParse(bodySchemas.gwa), gwb: fastSafeParse(bodySchemas.gwb), gwc: fastSafeParse(bodySchemas.gwc) };
    const answers = cases.map(({ provider, body }) => {
      const parsed = parsers[provider](body);
      if (!parsed.success) return { provider, invalid: parsed.error.issues };
      // The compiled check must answer with zod's own output.
      expect(parsed.data).toStrictEqual(bodySchemas[provider].parse(body));
      return { provider, ...enrichInline(provider, parsed.data as EnrichmentRequest<typeof provider>) };
    });
    const counts = { invalid: 0, refused: 0, enriched: 0 };
    for (const answer of answers) counts['invalid' in answer ? 'invalid' : 'ok' in answer && answer.ok ? 'enriched' : 'refused'] += 1;
    // The cases must keep exercising all three outcomes.
    expect(counts.invalid).toBeGreaterThan(50);
    expect(counts.refused).toBeGreaterThan(100);
    expect(counts.enriched).toBeGreaterThan(50);
    await expect(answers.map((a) => JSON.stringify(a)).join('\n') + '\n').toMatchFileSnapshot('./fixtures/golden-outputs.jsonl');
  });
});
