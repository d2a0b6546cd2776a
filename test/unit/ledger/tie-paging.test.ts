import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nextPage, pageStatement, pageWindow, type PageCursor } from '../../../server/domain/ledger/sync-rules.js';
import type { QboEntity } from '../../../server/ledger-sandbox/company.js';
import { parseQuery, runQuery } from '../../../server/ledger-sandbox/query.js';
import { seededRandom as seeded } from '../../support/ledger-sandbox.js';

const periodEnd = new Date('2026-06-01T00:00:00Z');
const periodStart = new Date('2026-05-01T00:00:00Z');
const at = (s: number) => new Date(periodStart.getTime() + s * 1000).toISOString().replace(/\.\d{3}Z$/, '-00:00');

/**
 * Rows around one tied second: `before` rows at distinct earlier seconds, `ties`
 * rows sharing one second, `after` rows later. Ids are shuffled so they say
 * nothing about the time order.
 */
function company(o: { before: number; ties: number; after: number; random: () => number }): QboEntity[] {
  const n = o.before + o.ties + o.after;
  const ids = Array.from({ length: n }, (_, i) => String(1001 + i));
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(o.random() * (i + 1));
    [ids[i], ids[j]] = [ids[j]!, ids[i]!];
  }
  return ids.map((Id, i) => ({
    Id,
    SyncToken: '0',
    MetaData: { LastUpdatedTime: at(i < o.before ? i : i < o.before + o.ties ? o.before + 10 : o.before + 20 + i) },
  }));
}

/**
 * The importer's page loop against the sandbox's query engine with its strict tie
 * order (a new order among tied rows on every request). `between` may change the
 * company before each query. Returns every row read as fresh, in order.
 */
function importAll(rows: QboEntity[], pageSize: number, random: () => number, between?: (page: number) => void) {
  const fresh: { Id: string; SyncToken: string }[] = [];
  let cursor: PageCursor | null = null;
  for (let page = 0; page < 10_000; page++) {
    between?.(page);
    const statement = pageStatement({ entity: 'Invoice', periodStart, periodEnd, cursor, pageSize });
    const window = pageWindow(cursor, pageSize);
    const answer = runQuery(rows, parseQuery(statement), { unstableTies: random }).rows;
    const digest = nextPage(cursor, window, answer, pageSize);
    fresh.push(...digest.fresh.map((r) => ({ Id: String(r.Id), SyncToken: String((r as QboEntity).SyncToken) })));
    cursor = digest.cursor;
    if (digest.last) return fresh;
  }
  throw new Error('the page loop did not end');
}

const sizes = fc.constantFrom(3, 10, 100, 500);
/** Tie counts below, at and above the page size, up to beyond the provider's 1000-row cap. */
const tieCount = (pageSize: number) =>
  fc.oneof(
    fc.constantFrom(0, 1, pageSize - 1, pageSize, pageSize + 1, 2 * pageSize + 1),
    fc.integer({ min: 0, max: Math.min(2600, 20 * pageSize) }),
    fc.constant(Math.min(1300, 20 * pageSize)),
  );
const layout = sizes.chain((pageSize) =>
  fc.record({
    pageSize: fc.constant(pageSize),
    ties: tieCount(pageSize),
    before: fc.integer({ min: 0, max: 2 * pageSize }),
    after: fc.integer({ min: 0, max: 2 * pageSize }),
    seed: fc.integer(),
  }),
);

describe('paging through rows that share a LastUpdatedTime, in an order reshuffled on every page', () => {
  it('when nothing changes during the import, then every row is read exactly once, whatever the tie count and page size', () => {
    fc.assert(
      fc.property(layout, ({ pageSize, ties, before, after, seed }) => {
        const random = seeded(seed);
        const rows = company({ before, ties, after, random });
        const read = importAll(rows, pageSize, random).map((r) => r.Id);
        expect(read.length).toBe(rows.length);
        expect(new Set(read)).toEqual(new Set(rows.map((r) => r.Id)));
      }),
      { numRuns: 40 },
    );
  });

  it('when 2,600 invoices share two timestamps (1,300 each) and pages hold 500, then all 2,600 are read', () => {
    const random = seeded(27);
    const rows = Array.from({ length: 2600 }, (_, i) => ({
      Id: String(1001 + i),
      SyncToken: '0',
      MetaData: { LastUpdatedTime: at(i % 2 === 0 ? 5 : 6) },
    }));
    const read = importAll(rows, 500, random).map((r) => r.Id);
    expect(read).toHaveLength(2600);
    expect(new Set(read).size).toBe(2600);
  });

  it('when tied rows change during the import (they move to a later time), then every row is read and the last version of each changed row too', () => {
    fc.assert(
      fc.property(layout, fc.array(fc.nat(), { maxLength: 8 }), ({ pageSize, ties, before, after, seed }, picks) => {
        const random = seeded(seed);
        const rows = company({ before, ties, after, random });
        const tied = rows.filter((r) => r.MetaData!.LastUpdatedTime === at(before + 10));
        const changed = new Map<string, string>();
        const read = importAll(rows, pageSize, random, (page) => {
          const pick = picks[page];
          if (pick === undefined || tied.length === 0) return;
          // An update gives the row a new version and a later time inside the run's period.
          const row = tied[pick % tied.length]!;
          row.SyncToken = String(Number(row.SyncToken) + 1);
          row.MetaData = { LastUpdatedTime: at(before + 30 + rows.length + page) };
          changed.set(row.Id, row.SyncToken);
        });
        expect(new Set(read.map((r) => r.Id))).toEqual(new Set(rows.map((r) => r.Id)));
        for (const [id, version] of changed) expect(read.some((r) => r.Id === id && r.SyncToken === version)).toBe(true);
      }),
      { numRuns: 40 },
    );
  });

  it('when the rows of one second are written with milliseconds or another offset, then they are one tie and the import ends with each row once', () => {
    // 1,200 rows within one second, as a source that keeps fractions (or another offset) would write them: the provider
    // compares them to the second, so they are tied, and a boundary inside that second must still settle.
    const second = new Date('2026-05-10T12:00:00Z').getTime();
    const written = (i: number) =>
      i % 3 === 0
        ? new Date(second + (i % 1000)).toISOString()
        : i % 3 === 1
          ? '2026-05-10T04:00:00-08:00'
          : new Date(second).toISOString().replace(/\.\d{3}Z$/, '-00:00');
    const rows: QboEntity[] = Array.from({ length: 1200 }, (_, i) => ({
      Id: String(5001 + i),
      SyncToken: '0',
      MetaData: { LastUpdatedTime: written(i) },
    }));
    for (const pageSize of [100, 500]) {
      const read = importAll(rows, pageSize, seeded(pageSize));
      expect(read.map((r) => r.Id).sort()).toEqual(rows.map((r) => r.Id).sort());
    }
  });
});
