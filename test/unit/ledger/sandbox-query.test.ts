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
      orderBy: { field: 'MetaData.LastUpdatedTime', desc: false },
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
});
