import { describe, expect, it } from 'vitest';
import { useLedgerApp } from '../../support/ledger-app.js';
import { invoiceReader } from '../../support/ledger-flow.js';
import { bodyFor, preparationFlow } from '../../support/preparation-flow.js';

// Response validation off, as in production: it would rebuild every answer in the contract's key order and hide
// the key order of what was saved.
const app = useLedgerApp({ sandbox: { invoices: 3, items: 6 }, config: { SVC_RESPONSE_VALIDATION: 'false' } });
const { sql, post, confirmMappings } = preparationFlow(app);

describe('invoice-backed preparation replays, byte for byte', () => {
  it('when the same request comes back, then the replay is the first answer byte for byte, and the saved data is its JSON text', async () => {
    const reader = await invoiceReader(app, 'gwc');
    const invoice = await confirmMappings(reader, '1001');
    const body = bodyFor(invoice);
    const first = await post(reader.key, 'gwcPreparation', body);
    expect(first.status).toBe(200);
    expect(first.body.data.mode).toBe('enhanced');
    const replays = await Promise.all([post(reader.key, 'gwcPreparation', body), post(reader.key, 'gwcPreparation', { ...body })]);
    expect(replays.map((r) => r.status)).toEqual([200, 200]);
    for (const replay of replays) expect(replay.text).toBe(first.text);
    const [row] = await sql(`select data::text as data, pg_typeof(data)::text as type from preparations where id = ?`, [
      first.body.preparation.id,
    ]);
    expect(row).toEqual({ data: JSON.stringify(first.body.data), type: 'json' });
  });
});
