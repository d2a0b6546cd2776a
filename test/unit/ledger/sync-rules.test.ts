import { describe, expect, it } from 'vitest';
import { backoffDelayMs } from '../../../server/integrations/ledger/backoff.js';
import { canMove, CHECKPOINT_OVERLAP_MS, nextCursor, pageStatement, planSync } from '../../../server/domain/ledger/sync-rules.js';
import { checkInvitation, cooldownRemainingSeconds } from '../../../server/domain/ledger/invitation-rules.js';
import { createTokenCipher } from '../../../server/crypto/token-cipher.js';
import { randomBytes } from 'node:crypto';

const now = new Date('2026-06-01T00:00:00Z');
const day = 86_400_000;
const plan = (checkedThrough: Date | null, fullReconciliation = false) => planSync({ checkedThrough, fullReconciliation, now, historyDays: 90, reconcileAfterDays: 30 });
const row = (t: string) => ({ MetaData: { LastUpdatedTime: t } });

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
  it('when a page ends, then the cursor holds its last time and skips the rows already seen at that time', () => {
    const first = nextCursor(null, [row('a'), row('b'), row('b')]);
    expect(first).toEqual({ lastUpdatedTime: 'b', startPosition: 3 });
    expect(nextCursor(first, [row('b'), row('b')])).toEqual({ lastUpdatedTime: 'b', startPosition: 5 });
    expect(nextCursor(first, [row('b'), row('c')])).toEqual({ lastUpdatedTime: 'c', startPosition: 2 });
    expect(nextCursor(first, [])).toBe(first);
  });
  it('when building a statement, then it filters the period, orders by LastUpdatedTime and pages', () => {
    const s = pageStatement({ entity: 'Invoice', periodStart: new Date('2026-01-01T00:00:00Z'), periodEnd: now, cursor: null, pageSize: 100 });
    expect(s).toBe("select * from Invoice where MetaData.LastUpdatedTime >= '2026-01-01T00:00:00.000Z' and MetaData.LastUpdatedTime <= '2026-06-01T00:00:00.000Z' orderby MetaData.LastUpdatedTime startposition 1 maxresults 100");
    expect(pageStatement({ entity: 'Item', periodStart: null, periodEnd: now, cursor: { lastUpdatedTime: 'T', startPosition: 4 }, pageSize: 10 })).toContain(">= 'T'");
    expect(pageStatement({ entity: 'Preferences', periodStart: null, periodEnd: now, cursor: null, pageSize: 10 })).toBe('select * from Preferences');
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
    expect(checkInvitation({ status: 'failed', expires_at: future }, now)).toBe('unknown');
    expect(checkInvitation({ status: 'consumed', expires_at: future }, now)).toBe('used');
    expect(checkInvitation({ status: 'sent', expires_at: now }, now)).toBe('expired');
    expect(checkInvitation({ status: 'sent', expires_at: future }, now, new Date(now.getTime() - 1))).toBe('expired');
    expect(checkInvitation({ status: 'sent', expires_at: future }, now)).toBe('ok');
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
