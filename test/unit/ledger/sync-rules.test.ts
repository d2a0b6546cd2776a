import { describe, expect, it } from 'vitest';
import { backoffDelayMs } from '../../../server/integrations/ledger/backoff.js';
import { providerDateTime } from '../../../server/domain/ledger/provider-time.js';
import {
  canMove,
  cdcAnswerCapped,
  CHECKPOINT_OVERLAP_MS,
  deletionStrategy,
  nextPage,
  pageStatement,
  pageWindow,
  planSync,
  reapDecision,
} from '../../../server/domain/ledger/sync-rules.js';
import { checkInvitation, cooldownRemainingSeconds } from '../../../server/domain/ledger/invitation-rules.js';
import { createTokenCipher } from '../../../server/crypto/token-cipher.js';
import { randomBytes } from 'node:crypto';

const now = new Date('2026-06-01T00:00:00Z');
const day = 86_400_000;
const plan = (checkedThrough: Date | null, fullReconciliation = false) =>
  planSync({ checkedThrough, fullReconciliation, now, historyDays: 90, reconcileAfterDays: 30 });
const row = (t: string, id = t) => ({ Id: id, MetaData: { LastUpdatedTime: t } });

describe('sync plan (checkpoint rules)', () => {
  it('when there is no checkpoint, then a bounded historical import of the configured window', () => {
    expect(plan(null)).toEqual({ mode: 'historical', periodStart: new Date(now.getTime() - 90 * day), periodEnd: now });
  });
  it('when the checkpoint is recent, then changes since it, with an overlap', () => {
    const cp = new Date(now.getTime() - day);
    expect(plan(cp)).toEqual({ mode: 'incremental', periodStart: new Date(cp.getTime() - CHECKPOINT_OVERLAP_MS), periodEnd: now });
  });
  it('when the checkpoint is stale or full reconciliation is asked, then a full import', () => {
    expect(plan(new Date(now.getTime() - 31 * day))).toEqual({ mode: 'full', periodStart: null, periodEnd: now });
    expect(plan(new Date(now.getTime() - day), true)).toEqual({ mode: 'full', periodStart: null, periodEnd: now });
  });
});

describe('sync run state moves', () => {
  it('when moving, then only queued→running/failed and running→running/succeeded/failed are allowed', () => {
    expect(canMove('queued', 'running')).toBe(true);
    expect(canMove('queued', 'succeeded')).toBe(false);
    expect(canMove('running', 'running')).toBe(true);
    expect(canMove('running', 'succeeded')).toBe(true);
    expect(canMove('succeeded', 'running')).toBe(false);
    expect(canMove('failed', 'queued')).toBe(false);
  });
});

describe('page cursor', () => {
  const ids = (rows: { Id: string }[]) => rows.map((r) => r.Id);
  it('when a page ends, then the cursor holds its last time and the ids already seen at that time', () => {
    const first = nextPage(null, pageWindow(null, 3), [row('a', '1'), row('b', '2'), row('b', '3')], 3);
    expect(first).toMatchObject({ last: false, cursor: { lastUpdatedTime: 'b', startPosition: 3, seenIds: ['2', '3'] } });
    expect(ids(first.fresh as { Id: string }[])).toEqual(['1', '2', '3']);
    const next = nextPage(
      first.cursor,
      pageWindow(first.cursor, 3),
      [row('b', '2'), row('b', '3'), row('b', '4'), row('c', '5'), row('c', '6')],
      3,
    );
    expect(next).toMatchObject({ last: false, cursor: { lastUpdatedTime: 'c', startPosition: 3, seenIds: ['5', '6'] } });
    expect(ids(next.fresh as { Id: string }[])).toEqual(['4', '5', '6']);
    expect(nextPage(first.cursor, pageWindow(first.cursor, 3), [], 3)).toEqual({ fresh: [], last: true, cursor: first.cursor });
  });
  it('when the tie set at the boundary is read again, then it starts at position 1 and asks for the seen ties plus a page', () => {
    expect(pageWindow(null, 10)).toEqual({ kind: 'scan', startPosition: 1, maxResults: 10 });
    expect(pageWindow({ lastUpdatedTime: 'b', startPosition: 3, seenIds: ['2', '3'] }, 10)).toEqual({
      kind: 'scan',
      startPosition: 1,
      maxResults: 12,
    });
  });
  it('when ties reorder or a seen tie leaves the tie set between pages, then no unseen tie is skipped', () => {
    // Page 1 saw 1 and 2 at time t; then 2 changed (moved to a later time) and the provider reordered the rest.
    const cursor = nextPage(null, pageWindow(null, 3), [row('s', '0'), row('t', '1'), row('t', '2')], 3).cursor;
    const window = pageWindow(cursor, 3);
    const rows = [row('t', '4'), row('t', '1'), row('t', '3'), row('u', '2'), row('u', '5')];
    const next = nextPage(cursor, window, rows, 3);
    expect(ids(next.fresh as { Id: string }[])).toEqual(['4', '3', '2', '5']);
    expect(next.last).toBe(false);
    expect(next.cursor).toMatchObject({ lastUpdatedTime: 'u', seenIds: ['2', '5'] });
  });
  it('when the ties at a time fill a page, then that time is walked alone in Id order, skipping ids already seen', () => {
    const first = nextPage(null, pageWindow(null, 3), [row('t', '7'), row('t', '2'), row('t', '9')], 3);
    expect(first.cursor).toEqual({ lastUpdatedTime: 't', startPosition: 1, seenIds: ['7', '2', '9'], tie: { afterId: null } });
    const w1 = pageWindow(first.cursor, 3);
    expect(w1).toEqual({ kind: 'tie', startPosition: 1, maxResults: 3 });
    const second = nextPage(first.cursor, w1, [row('t', '2'), row('t', '3'), row('t', '7')], 3);
    expect(ids(second.fresh as { Id: string }[])).toEqual(['3']);
    expect(second.cursor).toMatchObject({ startPosition: 3, tie: { afterId: '7' } });
    // The last row read comes back first (one row of overlap), then a page of new ones.
    const w2 = pageWindow(second.cursor, 3);
    expect(w2).toEqual({ kind: 'tie', startPosition: 3, maxResults: 4 });
    const third = nextPage(second.cursor, w2, [row('t', '7'), row('t', '9'), row('t', '10')], 3);
    expect(ids(third.fresh as { Id: string }[])).toEqual(['10']);
    // Fewer rows than asked: the time is done, the next scan starts after it.
    expect(third).toMatchObject({ last: false, cursor: { lastUpdatedTime: 't', startPosition: 1, pastTie: true } });
    expect(pageWindow(third.cursor, 3)).toEqual({ kind: 'scan', startPosition: 1, maxResults: 3 });
  });
  it('when rows before the walk position left the tie set, then the walk steps back instead of skipping', () => {
    const cursor = { lastUpdatedTime: 't', startPosition: 7, seenIds: [], tie: { afterId: '17' } };
    const w = pageWindow(cursor, 3);
    // Two rows before position 7 changed: the row at position 7 is now past 17, so 18 and 19 may sit before it.
    const stepped = nextPage(cursor, w, [row('t', '20'), row('t', '21'), row('t', '22'), row('t', '23')], 3);
    expect(stepped).toEqual({ fresh: [], last: false, cursor: { ...cursor, startPosition: 4 } });
    const again = nextPage(
      stepped.cursor,
      pageWindow(stepped.cursor, 3),
      [row('t', '16'), row('t', '18'), row('t', '19'), row('t', '20')],
      3,
    );
    expect(ids(again.fresh as { Id: string }[])).toEqual(['18', '19', '20']);
  });
  it('when a cursor was stored before seen ids were kept, or holds more than the cap allows, then no row is skipped by count', () => {
    expect(pageWindow({ lastUpdatedTime: 'b', startPosition: 4 }, 10)).toEqual({ kind: 'scan', startPosition: 1, maxResults: 10 });
    const many = Array.from({ length: 995 }, (_, i) => String(i));
    expect(pageWindow({ lastUpdatedTime: 'b', startPosition: 996, seenIds: many }, 10)).toEqual({
      kind: 'tie',
      startPosition: 996,
      maxResults: 10,
    });
  });
  it('when a time goes to the provider, then it has seconds precision and an explicit offset, whatever form it came in', () => {
    expect(providerDateTime(new Date('2026-01-01T00:00:00.999Z'))).toBe('2026-01-01T00:00:00-00:00');
    expect(providerDateTime('2024-06-01T10:00:00-07:00')).toBe('2024-06-01T17:00:00-00:00');
    expect(() => providerDateTime('not a time')).toThrow(RangeError);
  });
  it('when building a statement, then it filters the period, orders by LastUpdatedTime and pages; reconciling drops the period', () => {
    const s = pageStatement({
      entity: 'Invoice',
      periodStart: new Date('2026-01-01T00:00:00Z'),
      periodEnd: now,
      cursor: null,
      pageSize: 100,
    });
    expect(s).toBe(
      "select * from Invoice where MetaData.LastUpdatedTime >= '2026-01-01T00:00:00-00:00' and MetaData.LastUpdatedTime <= '2026-06-01T00:00:00-00:00' " +
        'orderby MetaData.LastUpdatedTime startposition 1 maxresults 100',
    );
    expect(
      pageStatement({
        entity: 'Item',
        periodStart: null,
        periodEnd: now,
        cursor: { lastUpdatedTime: '2026-05-01T10:00:00-07:00', startPosition: 4, seenIds: ['1', '2', '3'] },
        pageSize: 10,
      }),
    ).toBe(
      "select * from Item where MetaData.LastUpdatedTime >= '2026-05-01T17:00:00-00:00' and MetaData.LastUpdatedTime <= '2026-06-01T00:00:00-00:00' orderby MetaData.LastUpdatedTime startposition 1 maxresults 13",
    );
    const base = { entity: 'Invoice' as const, periodStart: null, periodEnd: now, pageSize: 10 };
    expect(
      pageStatement({ ...base, cursor: { lastUpdatedTime: '2026-05-01T17:00:00.250Z', startPosition: 5, tie: { afterId: '9' } } }),
    ).toBe("select * from Invoice where MetaData.LastUpdatedTime = '2026-05-01T17:00:00-00:00' orderby Id startposition 5 maxresults 11");
    expect(pageStatement({ ...base, cursor: { lastUpdatedTime: '2026-05-01T17:00:00-00:00', startPosition: 1, pastTie: true } })).toBe(
      "select * from Invoice where MetaData.LastUpdatedTime > '2026-05-01T17:00:00-00:00' and MetaData.LastUpdatedTime <= '2026-06-01T00:00:00-00:00' orderby MetaData.LastUpdatedTime startposition 1 maxresults 10",
    );
    expect(pageStatement({ entity: 'Item', periodStart: null, periodEnd: now, cursor: null, pageSize: 10, reconcile: true })).toBe(
      'select * from Item orderby MetaData.LastUpdatedTime startposition 1 maxresults 10',
    );
    expect(pageStatement({ entity: 'Preferences', periodStart: null, periodEnd: now, cursor: null, pageSize: 10 })).toBe(
      'select * from Preferences',
    );
  });
});

describe('deletions', () => {
  it('when choosing how deletions are found, then full runs reconcile, recent incremental runs use CDC, old ones reconcile, historical none', () => {
    expect(deletionStrategy('full', null, now)).toBe('reconcile');
    expect(deletionStrategy('incremental', new Date(now.getTime() - day), now)).toBe('cdc');
    expect(deletionStrategy('incremental', new Date(now.getTime() - 30 * day), now)).toBe('reconcile');
    expect(deletionStrategy('historical', new Date(now.getTime() - day), now)).toBe('none');
  });
  it('when a CDC answer reaches 1000 objects, then it counts as capped', () => {
    expect(cdcAnswerCapped(999)).toBe(false);
    expect(cdcAnswerCapped(1000)).toBe(true);
  });
});

describe('back-off', () => {
  it('when retrying, then the delay grows exponentially with jitter, is capped, and honours Retry-After', () => {
    expect(backoffDelayMs({ attempt: 0, baseMs: 100, maxMs: 10_000, random: 1 })).toBe(100);
    expect(backoffDelayMs({ attempt: 3, baseMs: 100, maxMs: 10_000, random: 0 })).toBe(400);
    expect(backoffDelayMs({ attempt: 20, baseMs: 100, maxMs: 10_000, random: 1 })).toBe(10_000);
    expect(backoffDelayMs({ attempt: 0, baseMs: 100, maxMs: 60_000, retryAfterMs: 5_000, random: 0 })).toBe(5_000);
  });
});

describe('invitation rules', () => {
  it('when an invitation was sent less than 30 s ago, then the remaining seconds; otherwise 0', () => {
    expect(cooldownRemainingSeconds(undefined, now)).toBe(0);
    expect(cooldownRemainingSeconds(new Date(now.getTime() - 10_500), now)).toBe(20);
    expect(cooldownRemainingSeconds(new Date(now.getTime() - 30_000), now)).toBe(0);
  });
  it('when checking an invitation, then unknown, used, expired or ok', () => {
    const future = new Date(now.getTime() + day);
    expect(checkInvitation(undefined, now)).toBe('unknown');
    expect(checkInvitation({ status: 'failed', expiresAt: future }, now)).toBe('unknown');
    expect(checkInvitation({ status: 'consumed', expiresAt: future }, now)).toBe('used');
    expect(checkInvitation({ status: 'sent', expiresAt: now }, now)).toBe('expired');
    expect(checkInvitation({ status: 'sent', expiresAt: future }, now, new Date(now.getTime() - 1))).toBe('expired');
    expect(checkInvitation({ status: 'sent', expiresAt: future }, now)).toBe('ok');
  });
});

describe('token cipher', () => {
  it('when encrypting, then AES-256-GCM round-trips, each ciphertext differs and tampering is detected', () => {
    const cipher = createTokenCipher(randomBytes(32));
    const a = cipher.encrypt('secret-token', 'conn-1');
    expect(a).not.toContain('secret-token');
    expect(cipher.encrypt('secret-token', 'conn-1')).not.toBe(a);
    expect(cipher.decrypt(a, 'conn-1')).toBe('secret-token');
    const parts = a.split('.');
    parts[3] = Buffer.from('x').toString('base64url');
    expect(() => cipher.decrypt(parts.join('.'), 'conn-1')).toThrow();
    expect(() => createTokenCipher(randomBytes(32)).decrypt(a, 'conn-1')).toThrow();
  });
});

describe('reaping runs whose job is gone', () => {
  it('when a run is found active, then it is kept while leased or its job can run, re-sent if never sent, else failed', () => {
    expect(reapDecision({ state: 'running', jobState: 'completed', leaseHeld: true })).toBe('keep');
    for (const jobState of ['created', 'retry', 'active'])
      expect(reapDecision({ state: 'running', jobState, leaseHeld: false })).toBe('keep');
    expect(reapDecision({ state: 'queued', jobState: null, leaseHeld: false })).toBe('resend');
    expect(reapDecision({ state: 'running', jobState: null, leaseHeld: false })).toBe('fail');
    for (const jobState of ['completed', 'failed', 'cancelled'])
      expect(reapDecision({ state: 'queued', jobState, leaseHeld: false })).toBe('fail');
  });
  it('when a job has been active past the grace period and nobody holds the lease, then its worker died: expired; otherwise kept', () => {
    const started = new Date(now.getTime() - 61_000);
    const o = { jobState: 'active', now, leaseGraceMs: 60_000, jobStartedAt: started };
    expect(reapDecision({ ...o, state: 'running', leaseHeld: false })).toBe('expired');
    expect(reapDecision({ ...o, state: 'queued', leaseHeld: false })).toBe('expired');
    expect(reapDecision({ ...o, state: 'running', leaseHeld: true })).toBe('keep');
    expect(reapDecision({ ...o, state: 'running', leaseHeld: false, jobStartedAt: new Date(now.getTime() - 59_000) })).toBe('keep');
    expect(reapDecision({ ...o, state: 'running', leaseHeld: false, jobStartedAt: null })).toBe('keep');
  });
});
