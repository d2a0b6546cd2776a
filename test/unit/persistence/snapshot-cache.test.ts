import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { PreparationContextRead } from '../../../server/domain/preparations/ports.js';
import { snapshotCache } from '../../../server/persistence/snapshot-cache.js';
import type { ContextRows } from '../../../server/persistence/sql/preparations.sql.js';

const read = (value = 'INV-1'): PreparationContextRead => ({
  scope: { organizationId: 'org', integrationId: 'int', environment: 'sandbox' },
  idempotencyKey: randomUUID(),
  selector: 'invoiceNumber',
  value,
});
type InvoiceReadRow = ContextRows['invoices'][number];
const row = (snapshotId: string | null, content: InvoiceReadRow['content']): InvoiceReadRow =>
  ({ snapshot_id: snapshotId, content, issues: content === null ? null : [] }) as unknown as InvoiceReadRow;
const context = (...invoices: InvoiceReadRow[]): ContextRows => ({ saved: undefined, invoices, authEpoch: '1' });

describe('snapshot cache', () => {
  it('when a snapshot was read, then the next read of its selector names it, and the JSON left out is filled in from it, frozen', () => {
    const cache = snapshotCache();
    const r = read();
    expect(cache.known(r)).toBeUndefined();
    const first = cache.fill(r, context(row('s1', { invoice: { total: 1 } })), undefined);
    expect(Object.isFrozen(first.invoices[0]!.content)).toBe(true);

    const known = cache.known(read());
    expect(known?.snapshotId).toBe('s1');
    const filled = cache.fill(read(), context(row('s1', null)), known);
    expect(filled.invoices[0]!.content).toEqual({ invoice: { total: 1 } });
    expect(() => {
      (filled.invoices[0]!.content as { invoice: { total: number } }).invoice.total = 2;
    }).toThrow(TypeError);
  });

  it('when the current snapshot is another one, then its JSON (sent) is used and remembered, never the one held', () => {
    const cache = snapshotCache();
    cache.fill(read(), context(row('s1', { invoice: { total: 1 } })), undefined);
    const known = cache.known(read());
    const next = cache.fill(read(), context(row('s2', { invoice: { total: 2 } })), known);
    expect(next.invoices[0]!.content).toEqual({ invoice: { total: 2 } });
    expect(cache.known(read())?.snapshotId).toBe('s2');
    // A row left without JSON that is not the held snapshot (a replay on its saved snapshot) stays without it.
    const replay = cache.fill(read(), context(row('s3', null)), cache.known(read()));
    expect(replay.invoices[0]!.content).toBeNull();
  });

  it('when a selector names two invoices, then neither is remembered for it', () => {
    const cache = snapshotCache();
    cache.fill(read('AMBIGUOUS'), context(row('a', { invoice: {} }), row('b', { invoice: {} })), undefined);
    expect(cache.known(read('AMBIGUOUS'))).toBeUndefined();
  });

  it('when more than 512 snapshots are read, then the cache starts over instead of growing', () => {
    const cache = snapshotCache();
    for (let i = 0; i < 600; i++) cache.fill(read(`INV-${i}`), context(row(`s${i}`, { invoice: { i } })), undefined);
    expect(cache.known(read('INV-599'))?.snapshotId).toBe('s599');
    expect(cache.known(read('INV-0'))).toBeUndefined();
  });
});
