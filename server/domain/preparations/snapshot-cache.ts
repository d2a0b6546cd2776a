import type { PreparationContext, PreparationContextRead } from '../../persistence/sql/preparations.sql.js';
import type { InvoiceReadRow } from '../../persistence/sql/stored-invoices.sql.js';

/** Beyond this many snapshots the cache starts over (a bound on memory, not a tuning knob). */
const MAX_CACHED_SNAPSHOTS = 1_000;

type SnapshotJson = Pick<InvoiceReadRow, 'content' | 'issues'>;

const deepFreeze = <T>(value: T): T => {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
};

/**
 * The parsed JSON of invoice snapshots this process has read, by snapshot id.
 * Snapshots are append-only (a trigger refuses updates and deletes), so an
 * entry never goes stale and nothing invalidates it. A preparation read names
 * the snapshot it last saw for its selection; the database then leaves that
 * snapshot's JSON out (when it is still the invoice's current one) and the
 * cached copy, frozen because requests share it, stands in.
 */
export function snapshotCache() {
  let json = new Map<string, SnapshotJson>();
  let lastSeen = new Map<string, string>();
  const selection = (r: PreparationContextRead) => `${r.scope.integrationId}|${r.selector}|${r.value}`;

  return {
    /** The read with the snapshot whose JSON is held, and what completes the answer to it. */
    prepare(read: PreparationContextRead): { read: PreparationContextRead; complete: (c: PreparationContext) => PreparationContext } {
      const known = lastSeen.get(selection(read));
      // Taken now: the cache may start over before the answer arrives.
      const held = known === undefined ? undefined : json.get(known);
      const complete = (context: PreparationContext): PreparationContext => {
        for (const invoice of context.invoices) {
          if (invoice.snapshot_id === null) continue;
          if (invoice.content !== null) {
            if (json.size >= MAX_CACHED_SNAPSHOTS || lastSeen.size >= MAX_CACHED_SNAPSHOTS) [json, lastSeen] = [new Map(), new Map()];
            json.set(invoice.snapshot_id, deepFreeze({ content: invoice.content, issues: invoice.issues }));
          } else if (held !== undefined && invoice.snapshot_id === known) {
            Object.assign(invoice, held);
          }
        }
        const [only] = context.invoices;
        if (context.invoices.length === 1 && only!.snapshot_id !== null && json.has(only!.snapshot_id)) {
          lastSeen.set(selection(read), only!.snapshot_id);
        }
        return context;
      };
      return { read: held === undefined ? read : { ...read, knownSnapshotId: known }, complete };
    },
  };
}
