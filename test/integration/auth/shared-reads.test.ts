import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sharedReads } from '../../../server/persistence/shared-reads.js';
import { poolDatabase } from '../../../server/persistence/kysely.js';
import { recordingDatabase } from '../../support/recording-database.js';
import { useTestApp } from '../../support/harness.js';

/**
 * The key cache's epoch may come from a preparation's context statement of the
 * same batch (server/persistence/shared-reads.ts). What makes that safe: the epoch a
 * request gets was read by a statement that started after the request asked,
 * so a change committed before it is always seen.
 */
const EPOCH_READ = 'select value from auth_epoch where id';

describe('shared reads: the auth epoch rides on preparation reads', () => {
  const app = useTestApp();

  /** The pool's statements, with the text of each one sent (a pass-through: every statement still runs). */
  const recordingPool = () => recordingDatabase(poolDatabase(app.orm));

  const contextRead = () => ({
    scope: { organizationId: randomUUID(), integrationId: randomUUID(), environment: 'sandbox' as const },
    idempotencyKey: `key-${randomUUID()}`,
    selector: 'ledgerInvoiceId' as const,
    value: 'INV-1',
  });
  const epochNow = async () => String((await app.orm.em.getConnection().execute('select value from auth_epoch where id'))[0]!.value);
  /** Move the epoch on (as any change to keys or links does), forget the statements sent so far, and return the new epoch. */
  async function nextRound(sent: string[]): Promise<string> {
    await app.orm.em.getConnection().execute('update auth_epoch set value = value + 1 where id');
    sent.length = 0;
    return epochNow();
  }

  it('when requests ask for the epoch beside preparation reads, then one statement answers both, with the epoch committed before they asked', async () => {
    const { db, sent } = recordingPool();
    const reads = sharedReads(db);
    for (let round = 0; round < 3; round++) {
      const expected = await nextRound(sent);
      // The first request starts a batch at once, alone; what is asked while it runs goes together in the next batch.
      const first = reads.authEpoch();
      const [contexts, epochs] = await Promise.all([
        Promise.all([reads.preparationContext(contextRead()), reads.preparationContext(contextRead())]),
        Promise.all([reads.authEpoch(), reads.authEpoch(), reads.authEpoch()]),
      ]);
      expect(await first).toBe(expected);
      expect(epochs).toEqual([expected, expected, expected]);
      // Each context carries the epoch its statement read: the shared reads hand it to requests authenticating meanwhile.
      expect(contexts).toEqual([
        { saved: undefined, invoices: [], authEpoch: expected },
        { saved: undefined, invoices: [], authEpoch: expected },
      ]);
      // The second batch is one statement: the context read of both requests, which also read the epoch.
      expect(sent).toHaveLength(2);
      expect(sent[0]).toBe(EPOCH_READ);
      expect(sent[1]).toContain('auth_epoch');
      expect(sent[1]).toContain('preparations');
    }
  });

  it('when only the epoch is asked for, then it is read alone, fresh each batch', async () => {
    const { db, sent } = recordingPool();
    const reads = sharedReads(db);
    for (let round = 0; round < 3; round++) {
      const expected = await nextRound(sent);
      expect(await Promise.all([reads.authEpoch(), reads.authEpoch(), reads.authEpoch()])).toEqual([expected, expected, expected]);
      // The first alone, the other two together.
      expect(sent).toEqual([EPOCH_READ, EPOCH_READ]);
    }
  });

  it('when the context statement fails, then the epoch is still read, and only the reads fail', async () => {
    const { db, sent } = recordingPool();
    const reads = sharedReads(db);
    const expected = await epochNow();
    // Not a uuid where the statement needs one: PostgreSQL refuses the context statement.
    const broken = { ...contextRead(), scope: { ...contextRead().scope, integrationId: 'not-a-uuid' } };
    const first = reads.authEpoch();
    const [context, epoch] = await Promise.allSettled([reads.preparationContext(broken), reads.authEpoch()]);
    expect(await first).toBe(expected);
    expect(context.status).toBe('rejected');
    expect(epoch).toEqual({ status: 'fulfilled', value: expected });
    // The epoch alone, the failed context statement, then the epoch alone again for the request that waited beside it.
    expect(sent).toHaveLength(3);
    expect([sent[0], sent[2]]).toEqual([EPOCH_READ, EPOCH_READ]);
  });
});
