import type { PreparationContextRead } from '../domain/preparations/ports.js';
import type { ContextRows } from './sql/preparations.sql.js';
import type { InvoiceReadRow } from './sql/stored-invoices.sql.js';
import { deepFreeze } from '../domain/deep-freeze.js';

/** What preparation reads of a snapshot's JSON. */
interface SnapshotJson {
  snapshotId: string;
  content: InvoiceReadRow['content'];
  issues: InvoiceReadRow['issues'];
}

/** Bounds on memory, not tuning knobs: past them the cache starts over. */
const MAX_SNAPSHOTS = 512;
const MAX_SELECTORS = 10_000;

/**
 * The JSON of snapshots this process has read, by id, so that a preparation of
 * an invoice whose current snapshot it already holds is not sent that JSON
 * again (≈ 4 KB for PostgreSQL to render and for this process to parse, per
 * request). Snapshots are immutable (a new import writes a new snapshot with a
 * new id), so an entry never goes stale; what may change is which snapshot is
 * an invoice's current one, and that is read every time: the read names the
 * snapshot it holds, and PostgreSQL leaves the JSON out only when that is still
 * the current one.
 */
export function snapshotCache() {
  let snapshots = new Map<string, SnapshotJson>();
  // The last snapshot read for a request's invoice selector: which one to name in the next read of that selector.
  let lastOf = new Map<string, string>();
  const selectorOf = (read: PreparationContextRead) => `${read.scope.integrationId}\u0000${read.selector}\u0000${read.value}`;

  return {
    /** The snapshot to name in this request's read; the caller holds the entry, so eviction cannot take it away. */
    known(read: PreparationContextRead): SnapshotJson | undefined {
      const id = lastOf.get(selectorOf(read));
      return id === undefined ? undefined : snapshots.get(id);
    },
    /** The context with the held snapshot's JSON where the read left it out; remembers the JSON it did send. */
    fill(read: PreparationContextRead, context: ContextRows, known: SnapshotJson | undefined): ContextRows {
      for (const row of context.invoices) {
        if (row.snapshot_id === null) continue;
        if (row.content === null && known !== undefined && row.snapshot_id === known.snapshotId) {
          row.content = known.content;
          row.issues = known.issues;
        } else if (row.content !== null) {
          if (snapshots.size >= MAX_SNAPSHOTS) snapshots = new Map();
          if (lastOf.size >= MAX_SELECTORS) lastOf = new Map();
          snapshots.set(row.snapshot_id, { snapshotId: row.snapshot_id, content: deepFreeze(row.content), issues: deepFreeze(row.issues) });
          if (context.invoices.length === 1) lastOf.set(selectorOf(read), row.snapshot_id);
        }
      }
      return context;
    },
  };
}
