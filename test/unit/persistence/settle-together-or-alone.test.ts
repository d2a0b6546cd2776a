import { describe, expect, it } from 'vitest';
import { settleTogetherOrAlone } from '../../../server/persistence/sql/batch.js';

/** A statement runner that records each call and fails as told. */
function runner(fail: (items: number[]) => Error | undefined) {
  const calls: number[][] = [];
  const many = async (items: number[]) => {
    calls.push(items);
    const error = fail(items);
    if (error) throw error;
    return items.map((n) => n * 10);
  };
  return { calls, many };
}

const withCode = (code: string, message = 'refused') => Object.assign(new Error(message), { code });

describe('group commit: one statement for a batch, each item alone only when that can help', () => {
  it('when the batch statement succeeds, then every item gets its own result from one call', async () => {
    const r = runner(() => undefined);
    expect(await settleTogetherOrAlone([1, 2, 3], r.many)).toEqual([
      { ok: true, value: 10 },
      { ok: true, value: 20 },
      { ok: true, value: 30 },
    ]);
    expect(r.calls).toEqual([[1, 2, 3]]);
  });

  it('when one item violates a constraint, then the others are written alone and only that item fails', async () => {
    const violation = withCode('23505', 'duplicate key');
    const r = runner((items) => (items.includes(2) ? violation : undefined));
    expect(await settleTogetherOrAlone([1, 2, 3], r.many)).toEqual([
      { ok: true, value: 10 },
      { ok: false, error: violation },
      { ok: true, value: 30 },
    ]);
    expect(r.calls).toEqual([[1, 2, 3], [1], [2], [3]]);
  });

  it.each([
    ['a statement cancelled by the statement timeout', withCode('57014', 'canceling statement due to statement timeout')],
    ['a refused connection', withCode('ECONNREFUSED')],
    ['a server shutting down', withCode('57P01')],
  ])('when the database is unusable (%s), then every item gets that error from the one call, none is retried', async (_what, error) => {
    const r = runner(() => error);
    expect(await settleTogetherOrAlone([1, 2, 3], r.many)).toEqual([
      { ok: false, error },
      { ok: false, error },
      { ok: false, error },
    ]);
    expect(r.calls).toEqual([[1, 2, 3]]);
  });

  it('when a batch of one fails, then the same statement is not sent again', async () => {
    const violation = withCode('23505');
    const r = runner(() => violation);
    expect(await settleTogetherOrAlone([7], r.many)).toEqual([{ ok: false, error: violation }]);
    expect(r.calls).toEqual([[7]]);
  });
});
