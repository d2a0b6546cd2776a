import fc from 'fast-check';
import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { BATCH, checkBatch, gwaHistoryArb, historyArb, WORLD, type PropertyEnv } from '../../support/evidence-property.js';
import { useLedgerApp } from '../../support/ledger-app.js';
import { invoiceReader, linkedProvider } from '../../support/ledger-flow.js';
import { bodyFor, preparationFlow } from '../../support/preparation-flow.js';

const app = useLedgerApp({ sandbox: { invoices: 2, items: 2 } });
const { post, confirmMappings } = preparationFlow(app);

/** `npm test` runs 1,000 histories; `npm run bench:evidence-property` runs 100,000 (docs/evidence.md). */
const HISTORIES = Number(process.env.EVIDENCE_PROPERTY_HISTORIES ?? 1000);
const SEED = process.env.EVIDENCE_PROPERTY_SEED === undefined ? Date.now() % 2 ** 31 : Number(process.env.EVIDENCE_PROPERTY_SEED);

/** docs/evidence.md, "Order never changes the answer". */
describe('evidence, payments and missing confirmations in any arrival order', () => {
  it(
    `when ${HISTORIES} generated gwc and gwa histories of merchant reports and signed provider deliveries arrive in any order, with duplicates, then every view equals the reference model of the final facts`,
    async () => {
      const reader = await invoiceReader(app, 'gwc');
      // gwa fields need the buyer's purchase-order number, kept in this custom field of the source.
      expect((await app.admin('connections.configure', { id: reader.connectionRowId, purchaseOrderField: 'Purchase Order' })).status).toBe(
        200,
      );
      const invoice = await confirmMappings(reader, '1001');
      const prepared = await post(reader.key, 'gwcPreparation', bodyFor(invoice));
      expect(prepared.body.data.mode).toBe('enhanced');
      const gwa = await linkedProvider(app, reader.ledger, 'gwa');
      const gwaPrepared = await post(gwa.key, 'gwa', bodyFor(invoice));
      expect(gwaPrepared.status, JSON.stringify(gwaPrepared.body)).toBe(200);
      const template = (res: typeof prepared) => ({ preparationId: res.body.preparation.id, amountMinor: invoice.totalAmountMinor });
      const env: PropertyEnv = { app, templates: { gwc: template(prepared), gwa: template(gwaPrepared) } };
      const started = performance.now();
      // The seed is in the failure message (fast-check prints it with the counterexample); set EVIDENCE_PROPERTY_SEED to replay.
      await fc.assert(
        fc.asyncProperty(
          fc.record({
            gwc: fc.array(historyArb, { minLength: WORLD, maxLength: WORLD }),
            gwa: fc.array(gwaHistoryArb, { minLength: WORLD, maxLength: WORLD }),
          }),
          (batch) => checkBatch(env, batch),
        ),
        { numRuns: Math.ceil(HISTORIES / BATCH), seed: SEED, endOnFailure: process.env.EVIDENCE_PROPERTY_SHRINK !== 'true' },
      );
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      console.log(`evidence property: ${Math.ceil(HISTORIES / BATCH) * BATCH} histories in ${seconds} s, seed ${SEED}, failures 0`);
    },
    Math.max(600_000, HISTORIES * 1000),
  );
});
