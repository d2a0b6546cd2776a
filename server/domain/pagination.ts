import { createHash } from 'node:crypto';
import { DomainError } from './errors.js';

/** Keyset position: rows are ordered by (createdAt, id); a cursor names the last row returned. */
export interface Position {
  createdAt: Date;
  id: string;
}

/**
 * A bound cursor carries a check of its position and of what it is bound to (the
 * tenant and the filters of the list), so reusing it with other filters, in
 * another tenant, or edited, is refused. The check is integrity, not secrecy:
 * every page query is tenant-scoped anyway.
 */
const check = (text: string, binding: string) => createHash('sha256').update(`${text}|${binding}`, 'utf8').digest('base64url').slice(0, 22);

export function encodeCursor(position: Position, binding?: string): string {
  const text = `${position.createdAt.toISOString()}|${position.id}`;
  return Buffer.from(binding === undefined ? text : `${text}|${check(text, binding)}`, 'utf8').toString('base64url');
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** A cursor is only what encodeCursor wrote: every decoded part is checked, so a tampered one is a 400, never a database error. */
export function decodeCursor(cursor: string, binding?: string): Position {
  const parts = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const [iso, id, sum] = parts;
  const createdAt = iso && ISO_INSTANT.test(iso) ? new Date(iso) : new Date(NaN);
  // Only an instant encodeCursor could have written: no day or hour that rolls over (it must read back unchanged),
  // and no year 0000, which JavaScript accepts and PostgreSQL refuses.
  const exact = !Number.isNaN(createdAt.getTime()) && createdAt.toISOString() === iso && createdAt.getUTCFullYear() >= 1;
  const bound = binding === undefined ? parts.length === 2 : parts.length === 3 && sum === check(`${iso}|${id}`, binding);
  if (!bound || !id || !UUID.test(id) || !exact) {
    throw new DomainError('validation_error', 'Invalid cursor', [
      { code: 'invalid_cursor', path: 'cursor', message: 'Use the nextCursor of the previous page unchanged' },
    ]);
  }
  return { createdAt, id };
}

/** Given limit+1 fetched rows, the page and the cursor of the next one (null on the last page). */
export function pageOf<T extends Position>(rows: T[], limit: number): { items: T[]; nextCursor: string | null } {
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  return { items, nextCursor: rows.length > limit && last ? encodeCursor(last) : null };
}
