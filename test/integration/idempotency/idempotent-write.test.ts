import { beforeAll, describe, expect, it } from 'vitest';
import { DomainError } from '../../../server/domain/errors.js';
import { requestFingerprint } from '../../../server/domain/idempotency/fingerprint.js';
import { idempotentWrite } from '../../../server/domain/idempotency/idempotent-write.js';
import { rawSql } from '../../support/raw-sql.js';
import { claimingKeys } from '../../../server/persistence/stores/key-taken.js';
import { useTestApp } from '../../support/harness.js';

/**
 * The shared idempotency module against a real table with a unique key, the way
 * payment reports and preparations use it: concurrent first requests, replays
 * and conflicting bodies.
 */
describe('idempotent write', () => {
  const app = useTestApp();
  const conflict = {
    message: 'Key reused with another body',
    issue: { code: 'idempotency_key_conflict', path: 'idempotencyKey', message: 'Reuse a key only for the same request' },
  };

  beforeAll(async () => {
    await app.orm.em
      .getConnection()
      .execute(
        'create table idempotency_probe (key text primary key, fingerprint char(64) not null, answer jsonb not null, created_at timestamptz not null default now())',
      );
  });

  /**
   * Resolves once `n` callers have arrived: concurrent writes that all meet here after their lookup found nothing
   * all go on to insert, so the race on the unique key happens every run instead of when timing allows.
   */
  const meeting = (n: number) => {
    let arrived = 0;
    let all!: () => void;
    const together = new Promise<void>((r) => (all = r));
    return () => {
      if (++arrived === n) all();
      return together;
    };
  };

  const write = (key: string, body: unknown, meet?: () => Promise<void>) => {
    const sql = rawSql(app.orm);
    const fingerprint = requestFingerprint(body);
    return idempotentWrite({
      fingerprint,
      find: async () => {
        const rows = await sql<{ fingerprint: string; answer: { id: string } }>(
          'select fingerprint, answer from idempotency_probe where key = ?',
          [key],
        );
        return rows[0];
      },
      create: async () => {
        const answer = { id: crypto.randomUUID() };
        await meet?.();
        // As a store does: the unique key's refusal reaches the domain as its `KeyTaken`.
        await claimingKeys(
          sql('insert into idempotency_probe (key, fingerprint, answer) values (?, ?, ?)', [key, fingerprint, JSON.stringify(answer)]),
        );
        return answer;
      },
      conflict,
    });
  };
  const rowsOf = async (key: string) =>
    app.orm.em.getConnection().execute('select key, answer from idempotency_probe where key = ?', [key]);

  it('when 50 identical first requests arrive together, then exactly one row is stored and every caller gets its answer', async () => {
    const meet = meeting(50);
    const results = await Promise.all(
      Array.from({ length: 50 }, () => write('k-concurrent', { amountMinor: 1000, currency: 'usd' }, meet)),
    );
    const rows = await rowsOf('k-concurrent');
    expect(rows).toHaveLength(1);
    expect(new Set(results.map((r) => r.answer.id))).toEqual(new Set([rows[0]!.answer.id]));
    expect(results.filter((r) => !r.replayed)).toHaveLength(1);
  });

  it('when the same key comes back with the same body in another key order, then the stored answer is replayed', async () => {
    const first = await write('k-replay', { amountMinor: 1000, currency: 'usd' });
    const again = await write('k-replay', { currency: 'usd', amountMinor: 1000 });
    expect(again).toEqual({ answer: first.answer, replayed: true });
  });

  it('when the same key comes with another body, sequentially or concurrently, then 409 and the stored row is unchanged', async () => {
    const first = await write('k-conflict', { amountMinor: 1000 });
    await expect(write('k-conflict', { amountMinor: 999 })).rejects.toMatchObject({ type: 'conflict', issues: [conflict.issue] });
    const meet = meeting(10);
    const racing = await Promise.allSettled(Array.from({ length: 10 }, (_, i) => write('k-race', { amountMinor: 1000 + i }, meet)));
    const won = racing.filter((r) => r.status === 'fulfilled');
    const lost = racing.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(9);
    for (const r of lost) expect(r.reason).toBeInstanceOf(DomainError);
    expect((await rowsOf('k-conflict'))[0]!.answer).toEqual(first.answer);
    expect(await rowsOf('k-race')).toHaveLength(1);
  });
});
