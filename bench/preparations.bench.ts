/**
 * `npm run bench:preparations`: invoice-backed gwc preparation (endpoint 12,
 * `/api/v1/gwc/payment-preparations/from-invoice`) against inline gwc enrichment
 * (`/api/v1/gwc/payment-intent-enrichment`) of the same invoice, in one run, on a
 * throw-away embedded PostgreSQL (or BENCH_DATABASE_URL), 32 connections on 127.0.0.1.
 *
 * The invoice is a synced sandbox invoice (BENCH_LINES lines, default 10) with every
 * item mapping confirmed, so endpoint 12 answers `enhanced`; the inline body is the
 * same invoice as a CanonicalInvoice (`toCanonicalInvoice` + `preparationRequest`,
 * exactly what the preparation enriches).
 *
 * Each path is warmed first (BENCH_WARMUP_SECONDS, default 2). Then BENCH_ROUNDS
 * rounds (default 5), each of: inline, new preparations (a distinct idempotency key
 * per request, so each one saves a preparation), identical replays (same key and
 * body, answered from the saved preparation after re-checking the source), inline
 * again; BENCH_SECONDS per load (default 5). Each round's ratios use the mean of its
 * two inline loads, so a machine shared with other work compares paths under the
 * same load; the medians over the rounds are reported, with the CPU time per request
 * of the service and of PostgreSQL (steadier than throughput on a shared machine). Targets: new preparations
 * ≥ 70 % of inline throughput; replays ≥ inline.
 *
 * BENCH_PROFILE=1: after the warm-up, profile one inline, one new-preparation and one replay load in the service's process
 * instead of the rounds (summary as in `bench:profile`; raw profiles to BENCH_PROFILE_OUT-<path>.cpuprofile).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createAdminCaller } from '../admin/router.js';
import type { StoredInvoice } from '../contract/invoices.js';
import { importRun } from '../server/domain/ledger/import-run.js';
import { preparationRequest, toCanonicalInvoice } from '../server/domain/invoices/index.js';
import { createLogger } from '../server/logger.js';
import { queuedImport } from './ledger-support.js';
import { BENCH_KEY_MAC, load, postgresCpuMs, printTable, startBenchService } from './support.js';
import { profiledLoad } from './profile-summary.js';

type Detail = { id: string; totalAmountMinor: number; invoice: StoredInvoice };

const LINES = Number(process.env.BENCH_LINES ?? 10);
const scratch = mkdtempSync(path.join(tmpdir(), 'svc-bench-preparations-'));
const env = await startBenchService();
try {
  // A synced sandbox company, a gwc integration linked to it and a key that reads invoices and prepares.
  const q = await queuedImport(env.orm, env.databaseUrl, {
    invoices: 12,
    items: 20,
    lines: LINES,
    realmId: `9341453${Date.now() % 100_000}`,
    outboxDir: scratch,
  });
  try {
    const outcome = await importRun(env.orm.em.fork(), q.runtime, { runId: q.runId, maxAttempts: 1, logger: createLogger('warn') });
    if (outcome !== 'done') throw new Error(`import did not complete: ${outcome}`);
  } finally {
    await q.sandbox.close();
  }
  const admin = createAdminCaller({ orm: env.orm, authorized: true, keyMac: BENCH_KEY_MAC });
  const gwc = await admin.integrations.create({ organizationId: q.organizationId, provider: 'gwc', environment: 'sandbox' });
  await admin.links.create({ ledgerIntegrationId: q.integrationId, providerIntegrationId: gwc.id });
  const key = (await admin.apiKeys.issue({ integrationId: gwc.id, scopes: ['invoices:read', 'enrichment:write'] })).key;
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${key}` };
  const get = async <T>(url: string): Promise<T> => {
    const res = await fetch(`${env.url}${url}`, { headers });
    if (res.status !== 200) throw new Error(`${url}: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { data: T }).data;
  };

  // Invoice 1001, every item's mapping confirmed (so endpoint 12 is `enhanced`).
  const [summary] = (await get<{ invoices: { id: string }[] }>('/api/v1/invoices?ledgerInvoiceId=1001')).invoices;
  const [connection] = await admin.connections.list({ integrationId: q.integrationId });
  for (const line of (await get<Detail>(`/api/v1/invoices/${summary!.id}`)).invoice.lineItems) {
    await admin.itemMappings.confirm({
      connectionId: connection!.id,
      sourceItemId: line.sourceItemId!,
      productCode: `P-${line.sourceItemId}`,
      unitOfMeasure: 'EA',
      evidence: 'Price list 2026',
      approvedBy: 'bench@example.test',
    });
  }
  const detail = await get<Detail>(`/api/v1/invoices/${summary!.id}`);
  const canonical = toCanonicalInvoice(detail.invoice);
  if (!canonical.ok) throw new Error(`not canonical: ${JSON.stringify(canonical.issues)}`);
  const inlineBody = JSON.stringify(preparationRequest('gwc', canonical.invoice));
  const template = { invoiceId: detail.id, amountMinor: detail.totalAmountMinor, currency: 'usd' };
  const replayBody = JSON.stringify({ ...template, idempotencyKey: 'bench-replay-key' });

  // Fail fast: a benchmark of 409s or ordinary preparations measures something else.
  const post = (url: string, body: string) => fetch(`${env.url}${url}`, { method: 'POST', headers, body });
  const inlineProbe = await post('/api/v1/gwc/payment-intent-enrichment', inlineBody);
  if (inlineProbe.status !== 200) throw new Error(`inline probe: ${inlineProbe.status} ${await inlineProbe.text()}`);
  const prepProbe = await post('/api/v1/gwc/payment-preparations/from-invoice', replayBody);
  const prepared = (await prepProbe.json()) as { data?: { mode: string; enrichment: unknown } };
  if (prepProbe.status !== 200 || prepared.data?.mode !== 'enhanced')
    throw new Error(`preparation probe: ${prepProbe.status} ${JSON.stringify(prepared)}`);
  if (JSON.stringify(prepared.data.enrichment) !== JSON.stringify(((await inlineProbe.json()) as { data: unknown }).data))
    throw new Error('the preparation and the inline enrichment differ: not the same work');

  const runs = {
    inline: { url: `${env.url}/api/v1/gwc/payment-intent-enrichment`, method: 'POST' as const, headers, body: inlineBody },
    fresh: {
      url: `${env.url}/api/v1/gwc/payment-preparations/from-invoice`,
      method: 'POST' as const,
      headers,
      body: JSON.stringify(template),
      generator: 'preparation:unique-key',
    },
    replay: { url: `${env.url}/api/v1/gwc/payment-preparations/from-invoice`, method: 'POST' as const, headers, body: replayBody },
  };
  // Warm every path first (JIT, pools), then measure in rounds of inline, new, replay, inline.
  const warmup = Number(process.env.BENCH_WARMUP_SECONDS ?? 2);
  for (const options of Object.values(runs)) await load('warm-up', { ...options, duration: warmup });
  if (process.env.BENCH_PROFILE) {
    // CPU profiles of the two preparation paths instead of the rounds (`BENCH_PROFILE=1 npm run bench:preparations`).
    for (const path of ['inline', 'fresh', 'replay'] as const)
      await profiledLoad(path === 'inline' ? 'inline-gwc' : `preparation-${path}`, runs[path]);
    process.exit(0);
  }
  const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
  const duration = Number(process.env.BENCH_SECONDS ?? 5);
  // CPU per request of the service (this process; the load generator has its own) and of PostgreSQL: steadier than
  // throughput on a machine shared with other work.
  const cpu: Record<'inline' | 'fresh' | 'replay', { service: number[]; postgres: number[] }> = {
    inline: { service: [], postgres: [] },
    fresh: { service: [], postgres: [] },
    replay: { service: [], postgres: [] },
  };
  const measured = async (path: keyof typeof runs, name: string) => {
    const [service0, postgres0] = [process.cpuUsage(), postgresCpuMs(env.pgDataDir)];
    const figures = await load(name, { ...runs[path], duration });
    const [service, postgres1] = [process.cpuUsage(service0), postgresCpuMs(env.pgDataDir)];
    cpu[path].service.push((service.user + service.system) / 1000 / figures.requests);
    if (postgres0 !== undefined && postgres1 !== undefined) cpu[path].postgres.push((postgres1 - postgres0) / figures.requests);
    return figures;
  };
  const ratios: { fresh: number; replay: number }[] = [];
  for (let round = 1; round <= rounds; round++) {
    const inlineBefore = await measured('inline', `round ${round}: gwc inline enrichment, ${LINES} lines (before)`);
    const fresh = await measured('fresh', `round ${round}: gwc preparation (endpoint 12), new key each`);
    const replay = await measured('replay', `round ${round}: gwc preparation (endpoint 12), identical replay`);
    const inlineAfter = await measured('inline', `round ${round}: gwc inline enrichment, ${LINES} lines (after)`);
    const inline = {
      ...inlineBefore,
      name: `round ${round}: gwc inline enrichment, mean of before and after`,
      requestsPerSecond: Math.round((inlineBefore.requestsPerSecond + inlineAfter.requestsPerSecond) / 2),
    };
    printTable([inlineBefore, inlineAfter, fresh, replay], inline);
    ratios.push({ fresh: fresh.requestsPerSecond / inline.requestsPerSecond, replay: replay.requestsPerSecond / inline.requestsPerSecond });
    console.log('');
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const pct = (x: number) => `${(x * 100).toFixed(0)}%`;
  const ms = (x: number | undefined) => (x === undefined ? 'n/a' : x.toFixed(2));
  console.log('| path | service CPU ms/request (median) | PostgreSQL CPU ms/request (median) |\n|---|---|---|');
  for (const [path, c] of Object.entries(cpu)) console.log(`| ${path} | ${ms(median(c.service))} | ${ms(median(c.postgres))} |`);
  console.log(
    `\nnew preparations: ${ratios.map((r) => pct(r.fresh)).join(' / ')} of inline, median ${pct(median(ratios.map((r) => r.fresh))!)} (target ≥ 70%)` +
      `\nidentical replays: ${ratios.map((r) => pct(r.replay)).join(' / ')} of inline, median ${pct(median(ratios.map((r) => r.replay))!)} (target ≥ 100%)`,
  );
  const [saved] = await env.orm.em.getConnection().execute(`select count(*)::int as n from preparations`);
  console.log(`preparations saved: ${saved?.n}`);
} finally {
  await env.close();
  rmSync(scratch, { recursive: true, force: true });
}
