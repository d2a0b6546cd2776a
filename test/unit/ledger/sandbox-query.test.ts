import { describe, expect, it } from 'vitest';
import { parseQuery, QueryParseError, runQuery } from '../../../server/ledger-sandbox/query.js';

const rows = [3, 1, 2, 4].map((n) => ({ Id: String(n), MetaData: { LastUpdatedTime: `2026-01-0${n}T00:00:00-00:00` } }));

describe('sandbox query grammar', () => {
  it('when a full statement is given, then entity, conditions, order and page are parsed', () => {
    const q = parseQuery(
      "SELECT * FROM Invoice WHERE MetaData.LastUpdatedTime >= '2026-01-02T00:00:00Z' AND Id > '1' ORDERBY MetaData.LastUpdatedTime STARTPOSITION 2 MAXRESULTS 10",
    );
    expect(q).toEqual({
      entity: 'Invoice',
      count: false,
      where: [
        { field: 'MetaData.LastUpdatedTime', op: '>=', value: '2026-01-02T00:00:00Z' },
        { field: 'Id', op: '>', value: '1' },
      ],
      orderBy: [{ field: 'MetaData.LastUpdatedTime', desc: false }],
      startPosition: 2,
      maxResults: 10,
    });
  });

  it('when OR, an unknown entity or more than 1000 rows are asked, then parsing fails', () => {
    expect(() => parseQuery("select * from Invoice where Id = '1' or Id = '2'")).toThrow(QueryParseError);
    expect(() => parseQuery('select * from Customer')).toThrow(QueryParseError);
    expect(() => parseQuery('select * from Item maxresults 1001')).toThrow(QueryParseError);
  });

  it('when run, then rows are filtered by time, ordered and paged from a 1-based start position', () => {
    const q = parseQuery(
      "select * from Item where MetaData.LastUpdatedTime >= '2026-01-02T00:00:00Z' orderby MetaData.LastUpdatedTime startposition 2 maxresults 1",
    );
    expect(runQuery(rows, q)).toEqual({ rows: [rows[0]], total: 3 });
    expect(runQuery(rows, parseQuery('select count(*) from Item')).total).toBe(4);
  });

  it('when strict, then rows tied on the ORDERBY come in a new order on each request, unless the ORDERBY ends in Id', () => {
    const tied = Array.from({ length: 40 }, (_, i) => ({ Id: String(i + 1), MetaData: { LastUpdatedTime: '2026-01-01T00:00:00-00:00' } }));
    const byTime = parseQuery('select * from Invoice orderby MetaData.LastUpdatedTime maxresults 40');
    const orders = new Set(
      Array.from({ length: 5 }, () =>
        runQuery(tied, byTime, { unstableTies: Math.random })
          .rows.map((r) => r.Id)
          .join(),
      ),
    );
    expect(orders.size).toBeGreaterThan(1);
    const ids = tied.map((r) => r.Id).join();
    expect(
      runQuery(tied, byTime)
        .rows.map((r) => r.Id)
        .join(),
    ).toBe(ids);
    const withId = parseQuery('select * from Invoice orderby MetaData.LastUpdatedTime, Id maxresults 40');
    expect(withId.orderBy).toEqual([
      { field: 'MetaData.LastUpdatedTime', desc: false },
      { field: 'Id', desc: false },
    ]);
    expect(
      runQuery(tied, withId, { unstableTies: Math.random })
        .rows.map((r) => r.Id)
        .join(),
    ).toBe(ids);
  });

  it('when times differ below the second, then they are equal, as the provider keeps seconds only', () => {
    const q = parseQuery("select * from Invoice where MetaData.LastUpdatedTime = '2026-01-01T00:00:00.900Z'");
    expect(runQuery([{ Id: '1', MetaData: { LastUpdatedTime: '2026-01-01T00:00:00-00:00' } }], q).total).toBe(1);
  });
});
