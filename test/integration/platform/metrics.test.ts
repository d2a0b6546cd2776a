import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useLedgerApp } from '../../support/ledger-app.js';
import { invite, invoiceReader, uniqueEmail } from '../../support/ledger-flow.js';
import { bodyFor, preparationFlow } from '../../support/preparation-flow.js';
import { gwcReport } from '../../support/reports.js';
import { adminCall, createTenant } from '../../support/tenants.js';
import { deliver, newKeys, sampleNotification } from '../../support/gwa-webhooks.js';
import { parseExposition, sampleSum, sampleValue, type Sample } from '../../support/metrics.js';
import { TEST_ADMIN_TOKEN } from '../../support/harness.js';

const METRICS_TOKEN = 'metrics-token-0123456789abcdef0123456789abcdef';
// A small bucket without leasing ahead, so a burst of one key is refused while the workload's keys stay within it.
const app = useLedgerApp({
  sandbox: { invoices: 12, items: 6 },
  config: { SVC_METRICS_TOKEN: METRICS_TOKEN, SVC_RATE_LIMIT_BURST: '40', SVC_RATE_LIMIT_PER_SECOND: '5', SVC_RATE_LIMIT_LEASE: '1' },
});
const { post, invoiceOf, confirmMappings } = preparationFlow(app);

const scrape = (token?: string) => fetch(`${app.url}/metrics`, token ? { headers: { authorization: `Bearer ${token}` } } : {});

/** Everything of the workload that must never appear in a label: ids, keys, emails, amounts. */
const secrets: string[] = [];

describe('GET /metrics', () => {
  it('when the bearer token is missing, wrong, or the admin token while a metrics token is set, then 401 and no metric', async () => {
    for (const res of [await scrape(), await scrape('not-the-token-0123456789abcdef0123456789'), await scrape(TEST_ADMIN_TOKEN)]) {
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
      const text = await res.text();
      expect(JSON.parse(text).error.type).toBe('authentication_error');
      expect(text).not.toContain('svc_');
    }
    const ok = await scrape(METRICS_TOKEN);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
  });

  it('when a mixed workload ran, then every family counts it exactly, by bounded labels only', async () => {
    // Ledger: an invitation sent (the connect flow), one refused, one sync run that succeeds.
    const reader = await invoiceReader(app, 'gwc');
    const refusedInvite = await invite(app, reader.ledger, { recipientEmail: uniqueEmail(), organizationId: randomUUID() });
    expect(refusedInvite.status).toBe(400);
    secrets.push(reader.key, reader.ledger.key, reader.ledger.organizationId, reader.integrationId, reader.connectionId);

    // Preparations: endpoint 11 refused (mapping, unknown invoice), endpoint 12 ordinary, enhanced (and its replay), refused (payment).
    const unmapped = await invoiceOf(reader, '1002');
    expect((await post(reader.key, 'gwc', bodyFor(unmapped))).status).toBe(422);
    expect((await post(reader.key, 'gwc', { ...bodyFor(unmapped), invoiceId: randomUUID() })).status).toBe(404);
    expect((await post(reader.key, 'gwcPreparation', bodyFor(unmapped))).body.data.mode).toBe('ordinary');
    const mapped = await confirmMappings(reader, '1001');
    const enhancedBody = bodyFor(mapped);
    expect((await post(reader.key, 'gwcPreparation', enhancedBody)).body.data.mode).toBe('enhanced');
    expect((await post(reader.key, 'gwcPreparation', enhancedBody)).body.data.mode).toBe('enhanced');
    expect((await post(reader.key, 'gwcPreparation', bodyFor(mapped, { amountMinor: mapped.totalAmountMinor + 1 }))).status).toBe(409);
    expect((await post(reader.key, 'gwc', bodyFor(mapped))).status).toBe(200);
    secrets.push(mapped.id, unmapped.id, enhancedBody.idempotencyKey, String(mapped.totalAmountMinor));

    // Payment reports: recorded, its retry (duplicate), the eventId reused (conflict), inconsistent amounts (validation).
    const payer = await createTenant(app, { provider: 'gwc', scopes: ['payments:write'] });
    const report = gwcReport({ amountMinor: 98765, capturedAmountMinor: 98765 });
    const sendReport = (json: Record<string, unknown>) =>
      app.request('/api/v1/gwc/payment-reports', { method: 'POST', key: payer.key, json });
    expect((await sendReport(report)).body.data.duplicate).toBe(false);
    expect((await sendReport(report)).body.data.duplicate).toBe(true);
    expect((await sendReport({ ...report, amountMinor: 98766, capturedAmountMinor: 98766 })).status).toBe(409);
    expect((await sendReport(gwcReport({ status: 'authorized' }))).status).toBe(400);
    secrets.push(payer.key, payer.keyId, payer.integrationId, String(report.eventId), String(report.attemptId), '98765');

    // gwa webhook deliveries: recorded (its observation is a gwa payment report), duplicate, bad signature, unknown endpoint.
    const merchant = await createTenant(app, { provider: 'gwa', scopes: ['payments:write'] });
    const keys = newKeys();
    const endpoint = await adminCall<{ id: string; url: string }>(app, 'webhookEndpoints.create', {
      integrationId: merchant.integrationId,
      ...keys,
    });
    const path = new URL(endpoint.url).pathname;
    const txn = `t${randomUUID().replace(/-/g, '').slice(0, 9)}`;
    const form = sampleNotification(keys, 'transaction_settlement_declined', txn);
    expect((await deliver(app, path, form)).body.duplicate).toBe(false);
    expect((await deliver(app, path, form)).body.duplicate).toBe(true);
    expect((await deliver(app, path, { ...form, gwa_signature: `${keys.publicKey}|${'0'.repeat(40)}` })).status).toBe(400);
    expect((await deliver(app, `/api/integrations/gwa/webhooks/${randomUUID()}`, form)).status).toBe(404);
    secrets.push(endpoint.id, keys.publicKey, keys.privateKey, txn, merchant.key);

    // A burst of one key beyond its bucket; these bodies fail the contract, so no report is recorded or refused by the domain.
    const burster = await createTenant(app, { provider: 'gwc', scopes: ['payments:write'] });
    const burst = await Promise.all(
      Array.from({ length: 60 }, () => app.request('/api/v1/gwc/payment-reports', { method: 'POST', key: burster.key, json: {} })),
    );
    const limited = burst.filter((r) => r.status === 429).length;
    expect(limited).toBeGreaterThan(0);
    expect(burst.filter((r) => r.status === 400).length).toBe(60 - limited);
    secrets.push(burster.key);
    const unmatchedPath = `/no/such/${randomUUID()}`;
    expect((await app.request(unmatchedPath)).status).toBe(404);

    const res = await scrape(METRICS_TOKEN);
    expect(res.status).toBe(200);
    const text = await res.text();
    const samples = parseExposition(text);
    const value = (name: string, labels: Record<string, string>) => sampleValue(samples, name, labels);

    expect(value('svc_invitations_total', { outcome: 'sent', reason: 'none' })).toBe(1);
    expect(value('svc_invitations_total', { outcome: 'refused', reason: 'validation_error' })).toBe(1);
    expect(value('svc_sync_runs_total', { state: 'succeeded', reason: 'none' })).toBe(1);
    expect(value('svc_sync_run_duration_seconds_count', { state: 'succeeded' })).toBe(1);
    expect(value('svc_sync_run_duration_seconds_bucket', { state: 'succeeded', le: '+Inf' })).toBe(1);

    const preparations = samples.filter((s) => s.name === 'svc_preparations_total');
    expect(preparations.map((s) => [s.labels.endpoint, s.labels.mode, s.labels.category, s.value]).sort()).toEqual(
      [
        ['gwc_enrichment', 'enhanced', 'none', 1],
        ['gwc_enrichment', 'refused', 'mapping', 1],
        ['gwc_enrichment', 'refused', 'not_found', 1],
        ['gwc_payment_preparation', 'enhanced', 'none', 2],
        ['gwc_payment_preparation', 'ordinary', 'none', 1],
        ['gwc_payment_preparation', 'refused', 'payment', 1],
        // Bound at start-up, never incremented: the other endpoints answer zero.
        ['gwa_enrichment', 'enhanced', 'none', 0],
        ['gwa_enrichment', 'ordinary', 'none', 0],
        ['gwb_enrichment', 'enhanced', 'none', 0],
        ['gwb_enrichment', 'ordinary', 'none', 0],
        ['gwc_enrichment', 'ordinary', 'none', 0],
      ].sort(),
    );

    const reports = samples.filter((s) => s.name === 'svc_payment_reports_total' && s.value > 0);
    expect(reports.map((s) => [s.labels.provider, s.labels.outcome, s.labels.reason, s.value]).sort()).toEqual(
      [
        ['gwa', 'recorded', 'none', 1],
        ['gwc', 'recorded', 'none', 1],
        ['gwc', 'duplicate', 'none', 1],
        ['gwc', 'refused', 'conflict', 1],
        ['gwc', 'refused', 'validation_error', 1],
      ].sort(),
    );

    const deliveries = samples.filter((s) => s.name === 'svc_webhook_deliveries_total');
    expect(deliveries.map((s) => [s.labels.provider, s.labels.outcome, s.value]).sort()).toEqual(
      [
        ['gwa', 'recorded', 1],
        ['gwa', 'duplicate', 1],
        ['gwa', 'invalid_signature', 1],
        ['gwa', 'endpoint_not_found', 1],
      ].sort(),
    );

    expect(value('svc_rate_limit_refusals_total', {})).toBe(limited);

    // RED: by route template, method and status class.
    const requests = (route: string, method: string, statusClass: string) =>
      value('svc_http_request_duration_seconds_count', { route, method, status_class: statusClass });
    expect(requests('/api/v1/gwc/payment-reports', 'POST', '2xx')).toBe(2);
    expect(requests('/api/v1/gwc/payment-reports', 'POST', '4xx')).toBe(2 + 60);
    expect(requests('/api/v1/gwc/payment-preparations/from-invoice', 'POST', '2xx')).toBe(3);
    expect(requests('/api/v1/gwc/payment-preparations/from-invoice', 'POST', '4xx')).toBe(1);
    expect(requests('/api/integrations/gwa/webhooks/:endpointId', 'POST', '2xx')).toBe(2);
    expect(requests('/api/integrations/gwa/webhooks/:endpointId', 'POST', '4xx')).toBe(2);
    expect(requests('/api/v1/integrations/ledger/invitations', 'POST', '2xx')).toBe(1);
    expect(requests('trpc:webhookEndpoints.create', 'POST', '2xx')).toBe(1);
    expect(requests('unmatched', 'GET', '4xx')).toBe(1);
    expect(requests('/api/v1/gwc/payment-reports', 'POST', '2xx')).toBe(
      value('svc_http_request_duration_seconds_bucket', {
        route: '/api/v1/gwc/payment-reports',
        method: 'POST',
        status_class: '2xx',
        le: '+Inf',
      }),
    );
    expect(sampleSum(samples, 'svc_http_request_duration_seconds_sum', { route: '/api/v1/gwc/payment-reports' })).toBeGreaterThan(0);

    // Saturation and process metrics.
    expect(value('svc_db_pool_connections', { state: 'in_use' })).toBeGreaterThanOrEqual(0);
    expect(value('svc_db_pool_connections', { state: 'idle' })).toBeGreaterThan(0);
    expect(value('svc_db_pool_waiting', {})).toBe(0);
    expect(value('svc_job_queue_depth', { queue: 'ledger-sync' })).toBe(0);
    for (const name of [
      'process_cpu_user_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_heap_size_used_bytes',
      'nodejs_eventloop_lag_p99_seconds',
    ])
      expect(value(name, {}), name).toBeGreaterThanOrEqual(0);

    expectBoundedLabels(samples);
    // A numeric secret (an amount, an event id) can equal a sample's value by chance (a byte count, a duration):
    // those are looked for in names and labels only, every other secret in the whole text.
    const namesAndLabels = text
      .split('\n')
      .map((line) => (line.startsWith('#') ? line : line.replace(/ \S+$/, '')))
      .join('\n');
    for (const secret of secrets) expect(/^\d+$/.test(secret) ? namesAndLabels : text, secret).not.toContain(secret);
    expect(text).not.toContain(unmatchedPath);
  });
});

/** No label of the service's own metrics holds an id, a number, an email or a concrete URL: every value is from a closed set. */
function expectBoundedLabels(samples: Sample[]): void {
  const own = samples.filter((s) => s.name.startsWith('svc_'));
  expect(own.length).toBeGreaterThan(0);
  for (const s of own) {
    for (const [label, value] of Object.entries(s.labels)) {
      if (label === 'le') continue;
      const where = `${s.name} ${label}="${value}"`;
      expect(value, where).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}/i);
      expect(value, where).not.toMatch(/[0-9]{2,}/);
      expect(value, where).not.toMatch(/[@|?=]/);
      if (label === 'route') expect(value, where).toMatch(/^(unmatched|trpc:[A-Za-z.]+|(\/(:?[A-Za-z][A-Za-z0-9.-]*)?)+)$/);
      else expect(value, where).toMatch(/^[A-Za-z0-9_-]+$/);
    }
  }
  // Each family has few series: bounded, whatever the workload's ids.
  const series = new Map<string, number>();
  for (const s of own) series.set(s.name, (series.get(s.name) ?? 0) + 1);
  for (const [name, count] of series) expect(count, name).toBeLessThan(500);
}
