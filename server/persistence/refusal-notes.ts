import { noteRefusal } from './sql/webhooks.sql.js';
import type { Database } from './kysely.js';
import type { RefusalNote, RefusalNotes } from '../domain/webhooks/gwc/intake.js';

/** At most one write of an endpoint's last refusal per this many milliseconds. */
const WINDOW_MS = 1_000;
/** Endpoints with a refusal waiting at most (then the newest ones are dropped until the next write). */
const MAX_PENDING = 10_000;

/**
 * An endpoint's last refusal, written behind (docs/decisions.md, "Webhook routes under abuse"): the first refusal of
 * an endpoint is written at once; the ones that follow within `WINDOW_MS` only replace the waiting note in memory,
 * and the newest is written when the window ends. A flood of refused deliveries costs at most one write per endpoint
 * per second; the operator still reads the last refusal (at most a second late). A note still waiting when the
 * process stops is lost: it is a diagnostic, not evidence.
 */
export function coalescedRefusalNotes(db: Database, onError: (err: unknown) => void): RefusalNotes {
  const written = new Map<string, number>();
  const pending = new Map<string, RefusalNote>();
  const write = (endpointId: string, note: RefusalNote) => {
    written.set(endpointId, Date.now());
    noteRefusal(db, endpointId, note).catch(onError);
  };
  const flush = (endpointId: string) => {
    const note = pending.get(endpointId);
    pending.delete(endpointId);
    if (note) write(endpointId, note);
    else written.delete(endpointId);
  };
  return {
    note(endpointId, note) {
      const last = written.get(endpointId);
      if (last === undefined) {
        write(endpointId, note);
        setTimeout(() => flush(endpointId), WINDOW_MS).unref();
        return;
      }
      if (pending.size >= MAX_PENDING && !pending.has(endpointId)) return;
      pending.set(endpointId, note);
    },
  };
}
