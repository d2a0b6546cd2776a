/**
 * `npm run bench:preparations`: invoice-backed gwc preparation (endpoint 12,
 * `/api/v1/gwc/payment-preparations/from-invoice`) against inline gwc enrichment
 * (`/api/v1/gwc/payment-intent-enrichment`) of the same invoice, both on the service as `npm start` runs it, compared
 * in rounds (bench/support.ts, `compareInRounds`) with inline enrichment as the baseline.
 *
 * The invoice is a synced sandbox invoice (BENCH_LINES lines, default 10; imported by `bench/seed-ledger.ts` in its
 * own process) with every item mapping confirmed through the operator API, so endpoint 12 answers `enhanced`; the
 * inline body is the same invoice as a CanonicalInvoice (`toCanonicalInvoice` + `preparationRequest`, exactly what
 * the preparation enriches). Loads: new preparations (a distinct idempotency key per request, so each one saves a
 * preparation) and identical replays (same key and body, answered from the saved preparation after re-checking the
 * source). Targets: new preparations ≥ 85 % of inline throughput with p99 ≤ 1.5 × inline's; replays ≥ 100 %.
 *
 * BENCH_PROFILE=1: profile one inline, one new-preparation and one replay load instead of the rounds (the service
 * run with `node --cpu-prof`, summary as in `bench:profile`).
 */
import type { StoredInvoice } from '../contract/invoices.js';
import { preparationRequest, toCanonicalInvoice } from '../server/domain/invoices/index.js';
import { startProfiledService } from './profile-summary.js';
import { admin, compareInRounds, linkedKey, load, seedLedger, startDatabase, startService, type ServiceProcess } from './support.js';

type Detail = { id: string; totalAmountMinor: number; invoice: StoredInvoice };

const LINES = Number(process.env.BENCH_LINES ?? 10);

/** A linked gwc key and the three loads, on a freshly seeded company whose invoice 1001 is fully mapped. */
async function setUp(db: { url: string }, service: ServiceProcess) {
  const ledger = await seedLedger(db, { invoices: 12, items: 20, lines: LINES, realmId: `9341453${Date.now() % 100_000}` });
  const { key } = await linkedKey(service, ledger, 'gwc', ['invoices:read', 'enrichment:write']);
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${key}` };
  const get = async <T>(url: string): Promise<T> => {
    const res = await fetch(`${service.url}${url}`, { headers });
    if (res.status !== 200) throw new Error(`${url}: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { data: T }).data;
  };

  // Invoice 1001, every item's mapping confirmed (so endpoint 12 is `enhanced`).
  const [summary] = (await get<{ invoices: { id: string }[] }>('/api/v1/invoices?ledgerInvoiceId=1001')).invoices;
  const [connection] = await admin<{ id: string }[]>(service, 'connections.list', { integrationId: ledger.integrationId }, 'query');
  for (const line of (await get<Detail>(`/api/v1/invoices/${summary!.id}`)).invoice.lineItems) {
    await admin(service, 'itemMappings.confirm', {
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
  const post = (url: string, body: string) => fetch(`${service.url}${url}`, { method: 'POST', headers, body });
  const inlineProbe = await post('/api/v1/gwc/payment-intent-enrichment', inlineBody);
  if (inlineProbe.status !== 200) throw new Error(`inline probe: ${inlineProbe.status} ${await inlineProbe.text()}`);
  const prepProbe = await post('/api/v1/gwc/payment-preparations/from-invoice', replayBody);
  const prepared = (await prepProbe.json()) as { data?: { mode: string; enrichment: unknown } };
  if (prepProbe.status !== 200 || prepared.data?.mode !== 'enhanced')
    throw new Error(`preparation probe: ${prepProbe.status} ${JSON.stringify(prepared)}`);
  if (JSON.stringify(prepared.data.enrichment) !== JSON.stringify(((await inlineProbe.json()) as { data: unknown }).data))
    throw new Error('the preparation and the inline enrichment differ: not the same work');

  const preparations = `${service.url}/api/v1/gwc/payment-preparations/from-invoice`;
  return {
    inline: { url: `${service.url}/api/v1/gwc/payment-intent-enrichment`, method: 'POST' as const, headers, body: inlineBody },
    fresh: { url: preparations, method: 'POST' as const, headers, body: JSON.stringify(template), generator: 'preparation:unique-key' },
    replay: { url: preparations, method: 'POST' as const, headers, body: replayBody },
  };
}

const db = await startDatabase();
try {
  if (process.env.BENCH_PROFILE) {
    const profiled = await startProfiledService(db);
    try {
      const runs = await setUp(db, profiled.service);
      for (const options of Object.values(runs)) await load('warm-up', { ...options, duration: 2 });
      await profiled.measure(`gwc inline enrichment, ${LINES} lines`, runs.inline);
      await profiled.measure('new preparations (endpoint 12)', runs.fresh);
      await profiled.measure('identical preparation replays', runs.replay);
    } finally {
      await profiled.stop();
    }
  } else {
    const service = await startService(db);
    try {
      const runs = await setUp(db, service);
      await compareInRounds(
        { name: `gwc inline enrichment, ${LINES} lines`, options: runs.inline },
        [
          { name: 'new preparations (endpoint 12, a new key each)', options: runs.fresh, minShare: 0.85, maxP99Ratio: 1.5 },
          { name: 'identical preparation replays', options: runs.replay, minShare: 1 },
        ],
        [service],
        db,
      );
    } finally {
      await service.stop();
    }
  }
} finally {
  await db.stop();
}
