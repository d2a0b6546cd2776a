import { describe, expect, it } from 'vitest';
import { useLedgerApp } from '../../support/ledger-app.js';
import { connect, ledgerTenant, waitForRun } from '../../support/ledger-flow.js';

// Strict protocol: a time in any other form than the documented one is refused with a validation fault.
const app = useLedgerApp({ sandbox: { invoices: 5, items: 2, strict: true } });
const sql = (q: string, p: unknown[] = []): Promise<any[]> => app.orm.em.getConnection().execute(q, p);

/** The documented form: seconds precision and an explicit offset. */
const documented = (d: Date | string) => new Date(d).toISOString().replace(/\.\d{3}Z$/, '-00:00');

describe('times sent to the accounting provider', () => {
  it('when a run queries and asks the change feed, then every time in the request text has seconds precision and an explicit offset', async () => {
    const tenant = await ledgerTenant(app);
    const connectionId = await connect(app, tenant);
    const seen: { kind: string; url: string }[] = [];
    app.sandbox.beforeAnswer(({ kind, url }) => seen.push({ kind, url }));
    const sync = async () => {
      const res = await app.request(`/api/v1/integrations/ledger/${connectionId}/sync`, { method: 'POST', key: tenant.key });
      expect(res.status).toBe(202);
      const run = await waitForRun(app, tenant, connectionId);
      expect(run).toMatchObject({ state: 'succeeded', error: null });
      return run;
    };

    const historical = await sync();
    const [row] = await sql(`select period_start, period_end from ledger_sync_runs where id = ?`, [historical.id]);
    const start = documented(row.period_start);
    const end = documented(row.period_end);
    const firstInvoicePage = new URL(seen.find((r) => r.kind === 'query' && r.url.includes('Invoice'))!.url, app.sandbox.url);
    expect(firstInvoicePage.searchParams.get('query')).toBe(
      `select * from Invoice where MetaData.LastUpdatedTime >= '${start}' and MetaData.LastUpdatedTime <= '${end}' ` +
        'orderby MetaData.LastUpdatedTime startposition 1 maxresults 10',
    );

    seen.length = 0;
    const incremental = await sync();
    expect(incremental.mode).toBe('incremental');
    const [inc] = await sql(`select period_start from ledger_sync_runs where id = ?`, [incremental.id]);
    const cdc = seen.filter((r) => r.kind === 'cdc').map((r) => new URL(r.url, app.sandbox.url).searchParams);
    expect(cdc.map((p) => [p.get('entities'), p.get('changedSince')])).toEqual([
      ['Item', documented(inc.period_start)],
      ['Invoice', documented(inc.period_start)],
    ]);
    for (const r of seen.filter((x) => x.kind === 'query')) {
      const text = new URL(r.url, app.sandbox.url).searchParams.get('query')!;
      for (const [, time] of text.matchAll(/'([^']*)'/g)) expect(time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/);
    }
  });

  it('when a time is sent in another form (milliseconds, Z), then the strict sandbox refuses it with a validation fault', async () => {
    const tenant = await ledgerTenant(app);
    await connect(app, tenant);
    const [conn] = await sql(`select id from ledger_connections where integration_id = ?`, [tenant.integrationId]);
    const access = app.runtime.cipher.decrypt(
      (await sql(`select access_token_enc from ledger_connections where id = ?`, [conn.id]))[0].access_token_enc,
      conn.id,
    );
    const realm = [...app.sandbox.companies.keys()][0]!;
    const get = (path: string, params: Record<string, string>) =>
      fetch(`${app.sandbox.url}/v3/company/${realm}/${path}?${new URLSearchParams({ ...params, minorversion: '75' })}`, {
        headers: { authorization: `Bearer ${access}`, accept: 'application/json' },
      });
    const query = await get('query', { query: "select * from Invoice where MetaData.LastUpdatedTime >= '2026-01-01T00:00:00.000Z'" });
    expect(query.status).toBe(400);
    expect(((await query.json()) as any).Fault.Error[0].Detail).toBe(
      "QueryParserError: MetaData.LastUpdatedTime must be a dateTime like 2026-01-01T00:00:00-00:00, got '2026-01-01T00:00:00.000Z'",
    );
    const changedSince = new Date(Date.now() - 86_400_000);
    const cdc = await get('cdc', { entities: 'Invoice', changedSince: changedSince.toISOString() });
    expect(cdc.status).toBe(400);
    expect(((await cdc.json()) as any).Fault.Error[0].Detail).toBe(
      `QueryParserError: changedSince must be a dateTime like 2026-01-01T00:00:00-00:00, got '${changedSince.toISOString()}'`,
    );
    expect((await get('cdc', { entities: 'Invoice', changedSince: documented(changedSince) })).status).toBe(200);
  });
});
