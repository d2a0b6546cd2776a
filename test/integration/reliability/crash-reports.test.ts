import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createClient } from '../../../sdk/src/index.js';
import type { GwbPaymentReport } from '../../../sdk/src/index.js';
import { factOf, projectionOf } from '../../../server/domain/payment-reports/record-payment-report.js';
import type { StoredObservation } from '../../../server/domain/payment-reports/types.js';
import { createTestDatabase } from '../../support/database.js';
import { spawnService, type ServiceProcess } from '../../support/service-process.js';
import { createTenant, type Tenant } from '../../support/tenants.js';
import { CRASH_RETRY_POLICY, untilAcknowledged } from './crash-support.js';

/** An observation as this test reads it with its own client (amounts and timestamps as text). */
interface ObservationRow {
  id: string;
  event_id: string;
  tracked_payment_id: string;
  status: string;
  currency: string;
  amount_minor: string;
  captured_amount_minor: string;
  refunded_amount_minor: string;
  occurred_at: string;
  received_at: string;
  payload: Record<string, unknown>;
  evidence: StoredObservation['evidence'];
}

const storedObservation = (o: ObservationRow): StoredObservation => ({
  id: o.id,
  status: o.status,
  currency: o.currency,
  amountMinor: Number(o.amount_minor),
  capturedAmountMinor: Number(o.captured_amount_minor),
  refundedAmountMinor: Number(o.refunded_amount_minor),
  occurredAt: new Date(o.occurred_at),
  receivedAt: new Date(o.received_at),
  payload: o.payload,
  evidence: o.evidence,
});

/**
 * Crash without loss (docs/reliability.md): clients report payment outcomes
 * through the SDK while the service is killed with SIGKILL twice and started
 * again. Every report ends acknowledged, is stored exactly once, and every
 * payment's projection equals the projection recomputed from its observations.
 */
const ATTEMPTS = 40;
const CLIENTS = 5;
/** Each attempt: authorized, captured, partially refunded, refunded; sent in a shuffled order. */
const STEPS = 4;
const N = ATTEMPTS * STEPS;

function reportsOf(attempt: number, runId: string): GwbPaymentReport[] {
  const at = (minute: number) => new Date(Date.UTC(2026, 0, 10, 10, attempt, minute)).toISOString();
  const amount = 1000 + attempt * 7;
  const base = { attemptId: `att_${runId}_${attempt}`, currency: 'usd', amountMinor: amount, source: 'api' as const };
  const reports: GwbPaymentReport[] = [
    {
      ...base,
      eventId: `evt_${runId}_${attempt}_a`,
      status: 'authorized',
      capturedAmountMinor: 0,
      refundedAmountMinor: 0,
      occurredAt: at(0),
    },
    {
      ...base,
      eventId: `evt_${runId}_${attempt}_c`,
      status: 'captured',
      capturedAmountMinor: amount,
      refundedAmountMinor: 0,
      occurredAt: at(1),
      paymentId: `pay${runId}${attempt}`,
    },
    {
      ...base,
      eventId: `evt_${runId}_${attempt}_p`,
      status: 'partially_refunded',
      capturedAmountMinor: amount,
      refundedAmountMinor: 100,
      occurredAt: at(2),
    },
    {
      ...base,
      eventId: `evt_${runId}_${attempt}_r`,
      status: 'refunded',
      capturedAmountMinor: amount,
      refundedAmountMinor: amount,
      occurredAt: at(3),
    },
  ];
  // Out of order for some attempts: an older report arriving later is history, not the current state.
  return attempt % 3 === 0 ? reports.reverse() : attempt % 3 === 1 ? [reports[1]!, reports[0]!, reports[3]!, reports[2]!] : reports;
}

describe('payment reports across SIGKILL of the service', () => {
  let svc: ServiceProcess;
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let tenant: Tenant;

  beforeAll(async () => {
    db = await createTestDatabase();
    svc = await spawnService({ DATABASE_URL: db.url });
    tenant = await createTenant(svc, { provider: 'gwb', scopes: ['payments:write'] });
  });
  afterAll(async () => {
    await svc?.close();
    await db?.drop();
  });

  it('acknowledges every report once, stores exactly N observations and keeps every projection equal to its recomputation', async () => {
    const runId = Math.random().toString(36).slice(2, 8);
    const client = createClient({ baseUrl: svc.url, apiKey: tenant.key, retry: CRASH_RETRY_POLICY, timeoutMs: 10_000 });
    const acks = new Map<string, string>();
    let acknowledged = 0;
    const crashes: number[] = [];
    const pidsBefore = svc.pid;

    // Kill the service when a quarter and when half of the reports are acknowledged, and start it again at once.
    const chaos = (async () => {
      for (const threshold of [N / 4, N / 2]) {
        await untilAcknowledged(() => acknowledged, threshold);
        crashes.push(acknowledged);
        await svc.kill9();
        await svc.start();
      }
    })();

    const clients = Array.from({ length: CLIENTS }, async (_, c) => {
      for (let attempt = c; attempt < ATTEMPTS; attempt += CLIENTS) {
        for (const body of reportsOf(attempt, runId)) {
          const res = await client.gwb.reportPayment({ body });
          expect(res.status).toBe(200);
          acks.set(body.eventId, res.body.data.id);
          acknowledged++;
        }
      }
    });
    await Promise.all(clients);
    await chaos;

    expect(crashes).toHaveLength(2);
    expect(crashes[1]!).toBeLessThan(N);
    expect(svc.pid).not.toBe(pidsBefore);
    expect(acks.size).toBe(N);

    const client2 = new pg.Client({ connectionString: db.url });
    await client2.connect();
    try {
      const observations = await client2.query<ObservationRow>(
        `select id, event_id, tracked_payment_id, status, currency, amount_minor, captured_amount_minor, refunded_amount_minor,
                occurred_at, received_at, payload, evidence
           from payment_observations where integration_id = $1`,
        [tenant.integrationId],
      );
      // Exactly N observations, one per eventId, each the one its acknowledgment named.
      expect(observations.rowCount).toBe(N);
      expect(new Set(observations.rows.map((o) => o.event_id)).size).toBe(N);
      for (const o of observations.rows) expect(acks.get(o.event_id)).toBe(o.id);

      const payments = await client2.query(
        `select id, provider_payment_id, account_id, charge_id, order_id, status, currency, amount_minor, captured_amount_minor,
                refunded_amount_minor, occurred_at, current_observation_id, enrichment_request_id, observation_count
           from tracked_payments where integration_id = $1`,
        [tenant.integrationId],
      );
      expect(payments.rowCount).toBe(ATTEMPTS);
      for (const p of payments.rows) {
        const facts = observations.rows.filter((o) => o.tracked_payment_id === p.id).map((o) => factOf('gwb', storedObservation(o)));
        const expected = projectionOf(facts, null, new Date());
        expect({
          providerPaymentId: p.provider_payment_id,
          accountId: p.account_id,
          chargeId: p.charge_id,
          orderId: p.order_id,
          status: p.status,
          currency: p.currency,
          amountMinor: Number(p.amount_minor),
          capturedAmountMinor: Number(p.captured_amount_minor),
          refundedAmountMinor: Number(p.refunded_amount_minor),
          occurredAt: new Date(p.occurred_at),
          currentObservationId: p.current_observation_id,
          enrichmentRequestId: p.enrichment_request_id,
          observationCount: p.observation_count,
        }).toEqual({ ...expected, updatedAt: undefined });
        // Every attempt ends fully refunded, whatever order its reports arrived in.
        expect(p.status).toBe('refunded');
        expect(p.observation_count).toBe(STEPS);
      }
    } finally {
      await client2.end();
    }
  }, 90_000);
});
