import fc from 'fast-check';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { PaymentReport } from '../../contract/payment-reports.js';
import { DomainError } from '../../server/domain/errors.js';
import { receiveNotification } from '../../server/domain/webhooks/gwa/intake.js';
import { receiveGwcEvent } from '../../server/domain/webhooks/gwc/intake.js';
import { recordPaymentReport } from '../../server/domain/payment-reports/record-payment-report.js';
import { coalescedRefusalNotes } from '../../server/persistence/refusal-notes.js';
import { poolUnitOfWork } from '../../server/persistence/unit-of-work.js';
import { poolDatabase } from '../../server/persistence/kysely.js';
import { EVIDENCE_STATES } from '../../server/domain/evidence/evidence-state.js';
import { csvObjects } from './csv.js';
import { rawSql } from './raw-sql.js';
import { newKeys, transactionNotification } from './gwa-webhooks.js';
import { charge, gwcEvent, newPaymentIntentId, newSecret, paymentIntent, signed } from './gwc-webhooks.js';
import { TEST_ADMIN_TOKEN, type TestApp } from './harness.js';

/**
 * The interleaving property of docs/evidence.md ("Order never changes the answer"): generated histories of gwc and gwa
 * payments of one or several preparations, delivered in any order through the same use cases the HTTP handlers call
 * (merchant reports: `recordPaymentReport`; signed provider deliveries: `receiveGwcEvent` and `receiveNotification`,
 * signed as the providers' SDKs sign), and every operator view compared with a small reference model computed from
 * the final facts alone.
 */

/**
 * The real payment's moments, in time order: authorized, captured, partly refunded, fully refunded; and for gwa
 * (spec: Report statuses) voided after the authorization (`canceled`) or declined (`failed`).
 */
const STEPS = [
  { status: 'authorized', captured: false, refunded: 'none' },
  { status: 'captured', captured: true, refunded: 'none' },
  { status: 'partially_refunded', captured: true, refunded: 'part' },
  { status: 'refunded', captured: true, refunded: 'all' },
  { status: 'canceled', captured: false, refunded: 'none' },
  { status: 'failed', captured: false, refunded: 'none' },
] as const;
const LIFECYCLES = { authorized: [0], captured: [0, 1], partial: [0, 1, 2], full: [0, 1, 3], partialThenFull: [0, 1, 2, 3] } as const;
/** gwa adds a void, a decline, and a settlement the provider declined after the authorization (`declined`). */
const GWA_LIFECYCLES = { ...LIFECYCLES, canceled: [0, 4], failed: [5], declined: [0] } as const;
const FAILED = 5;
/** When a moment happened: one minute apart, in the order of `STEPS`. */
const momentAt = (base: number, step: number) => base + step * 60;

interface Delivery {
  include: boolean;
  duplicate: boolean;
}
interface MerchantDelivery extends Delivery {
  withPaymentIntent: boolean;
  source: 'api' | 'merchant_webhook';
}
export interface PreparationHistory {
  lifecycle: keyof typeof LIFECYCLES;
  /** Every payment fact of this preparation is for another amount than the preparation's (a correlation exception). */
  mismatch: boolean;
  /** The merchant's reports name the preparation (`enrichmentRequestId`); all or none, as one integration does. */
  merchantNames: boolean;
  /** The provider's events carry `svc_preparation_id`; all or none, as one checkout does. */
  providerMetadata: boolean;
  merchant: MerchantDelivery[];
  provider: Delivery[];
}
export interface History {
  preparations: PreparationHistory[];
  /** Sort keys of the deliveries: any arrival order. */
  order: number[];
}

interface GwaMerchantDelivery extends Delivery {
  withTransactionId: boolean;
  source: 'api' | 'merchant_webhook';
}
interface Notified extends Delivery {
  /** Stamped after the refunds (a disbursement days after the settlement, the refund in between), else before them. */
  late: boolean;
}
/** One gwa preparation's payment: the merchant's reports (endpoint 3) and the provider's signed notifications (endpoint 4). */
export interface GwaPreparationHistory {
  lifecycle: keyof typeof GWA_LIFECYCLES;
  mismatch: boolean;
  merchantNames: boolean;
  merchant: GwaMerchantDelivery[];
  /**
   * `transaction_settled` and `transaction_disbursed`: sent only for a transaction submitted for settlement;
   * `settled` is `transaction_settlement_declined` in the `declined` lifecycle.
   */
  settled: Notified;
  disbursed: Notified;
}
export interface GwaHistory {
  preparations: GwaPreparationHistory[];
  order: number[];
}

const delivery = { include: fc.boolean(), duplicate: fc.integer({ min: 0, max: 4 }).map((n) => n === 0) };
const source = fc.constantFrom('api' as const, 'merchant_webhook' as const);
const preparationArb: fc.Arbitrary<PreparationHistory> = fc.record({
  lifecycle: fc.constantFrom(...(Object.keys(LIFECYCLES) as (keyof typeof LIFECYCLES)[])),
  mismatch: fc.integer({ min: 0, max: 7 }).map((n) => n === 0),
  merchantNames: fc.boolean(),
  providerMetadata: fc.boolean(),
  merchant: fc.array(fc.record({ ...delivery, withPaymentIntent: fc.boolean(), source }), { minLength: 4, maxLength: 4 }),
  provider: fc.array(fc.record(delivery), { minLength: 4, maxLength: 4 }),
});
export const historyArb: fc.Arbitrary<History> = fc.record({
  preparations: fc.array(preparationArb, { minLength: 1, maxLength: 3 }),
  order: fc.array(fc.nat(), { minLength: 48, maxLength: 48 }),
});
const notifiedArb: fc.Arbitrary<Notified> = fc.record({ ...delivery, late: fc.boolean() });
const gwaPreparationArb: fc.Arbitrary<GwaPreparationHistory> = fc.record({
  lifecycle: fc.constantFrom(...(Object.keys(GWA_LIFECYCLES) as (keyof typeof GWA_LIFECYCLES)[])),
  mismatch: fc.integer({ min: 0, max: 7 }).map((n) => n === 0),
  // Only the merchant names a gwa preparation: mostly it does, or most gwa histories would have nothing to confirm.
  merchantNames: fc.integer({ min: 0, max: 3 }).map((n) => n !== 0),
  merchant: fc.array(fc.record({ ...delivery, withTransactionId: fc.boolean(), source }), { minLength: 4, maxLength: 4 }),
  settled: notifiedArb,
  disbursed: notifiedArb,
});
export const gwaHistoryArb: fc.Arbitrary<GwaHistory> = fc.record({
  preparations: fc.array(gwaPreparationArb, { minLength: 1, maxLength: 3 }),
  order: fc.array(fc.nat(), { minLength: 48, maxLength: 48 }),
});

/** The stored template every generated preparation is a copy of (an enhanced preparation of a real invoice). */
export interface Template {
  preparationId: string;
  amountMinor: number;
}

/** What one history expects, from its final facts only. */
interface ModelPayment {
  attemptId: string;
  step: number;
  names: boolean;
  verified: boolean;
  amountMinor: number;
}
interface ModelPreparation {
  id: string;
  state: (typeof EVIDENCE_STATES)[number];
  captured: number;
  refunded: number;
  payment: ModelPayment | null;
  /** What was generated for it, for the failure message. */
  history: unknown;
}

const amountsOf = (step: number, total: number) => {
  const s = STEPS[step]!;
  const captured = s.captured ? total : 0;
  return { captured, refunded: s.refunded === 'none' ? 0 : s.refunded === 'part' ? Math.floor(total / 3) : total };
};

/**
 * The preparation's evidence from its payments (docs/evidence.md, "The chain" and "States"): the payment that stands
 * for it is one naming it, a provider-verified one first; its state is decided by the first rule that applies.
 */
function preparationOf(id: string, history: { mismatch: boolean }, payments: ModelPayment[]): ModelPreparation {
  const chain = payments.filter((x) => x.names).sort((a, b) => Number(b.verified) - Number(a.verified))[0] ?? null;
  const { captured, refunded } = chain ? amountsOf(chain.step, chain.amountMinor) : { captured: 0, refunded: 0 };
  const state: ModelPreparation['state'] = !chain
    ? 'unconfirmed'
    : history.mismatch
      ? 'exception'
      : captured > 0
        ? chain.verified
          ? 'verified'
          : 'reported_only'
        : 'unconfirmed';
  return { id, state, captured, refunded, payment: chain, history };
}

/**
 * The reference model, from the final facts (the deliveries that were recorded). The merchant's payment and the
 * provider's are one payment exactly when an accepted merchant report carried the PaymentIntent id (a provisional
 * payment is then adopted or merged, in any order); its state is the latest moment among its facts.
 */
export function model(
  p: PreparationHistory,
  ids: { preparationId: string; attemptId: string; pi: string },
  total: number,
  /** Per moment, whether the merchant's report of it was accepted: a report of a moment earlier than one already recorded is refused (409) and is no fact. */
  accepted: boolean[],
) {
  const steps = LIFECYCLES[p.lifecycle];
  const merchantSteps = steps.filter((s, k) => accepted[k]);
  const providerSteps = steps.filter((s, k) => s > 0 && p.provider[k]!.include);
  const linked = steps.some((s, k) => accepted[k] && p.merchant[k]!.withPaymentIntent);
  const amountMinor = p.mismatch ? total - 1 : total;
  const payments: ModelPayment[] = [];
  const m = merchantSteps.length > 0;
  const v = providerSteps.length > 0;
  if (m && linked) {
    payments.push({
      attemptId: ids.attemptId,
      step: Math.max(...merchantSteps, ...providerSteps),
      names: (p.merchantNames && m) || (p.providerMetadata && v),
      verified: v,
      amountMinor,
    });
  } else {
    if (m)
      payments.push({ attemptId: ids.attemptId, step: Math.max(...merchantSteps), names: p.merchantNames, verified: false, amountMinor });
    if (v) {
      const attemptId = `gwc_payment_intent_${ids.pi}`;
      payments.push({ attemptId, step: Math.max(...providerSteps), names: p.providerMetadata, verified: true, amountMinor });
    }
  }
  return { preparation: preparationOf(ids.preparationId, p, payments), payments };
}

/**
 * The gwa reference model, from the final facts. Every merchant report of the real payment is accepted in any order
 * (docs/payment-reports.md, P5 and P8: consistent reports never conflict). A settlement notification says the
 * transaction was captured (spec: Provider state normalization; its refunds are separate transactions the
 * notification does not carry) and is provider-verified; it names no preparation itself (gwa has no metadata), so
 * its payment names one only when it is the merchant's. The two are one payment exactly when a merchant report
 * carried the transaction id; the state is then the latest moment among the merchant's reports and the capture.
 */
export function gwaModel(
  p: GwaPreparationHistory,
  ids: { preparationId: string; attemptId: string; transactionId: string },
  total: number,
) {
  const steps: readonly number[] = GWA_LIFECYCLES[p.lifecycle];
  const merchantSteps = steps.filter((s, k) => p.merchant[k]!.include);
  const notified = steps.includes(1) && (p.settled.include || p.disbursed.include);
  // A declined settlement is a provider-verified failure after the authorization: no capture to verify.
  const declined = p.lifecycle === 'declined' && p.settled.include;
  const providerSteps = notified ? [1] : declined ? [FAILED] : [];
  const linked = steps.some((s, k) => p.merchant[k]!.include && p.merchant[k]!.withTransactionId);
  const amountMinor = p.mismatch ? total - 1 : total;
  const payments: ModelPayment[] = [];
  const m = merchantSteps.length > 0;
  if (m && linked) {
    const step = Math.max(...merchantSteps, ...providerSteps);
    payments.push({ attemptId: ids.attemptId, step, names: p.merchantNames, verified: notified, amountMinor });
  } else {
    if (m)
      payments.push({ attemptId: ids.attemptId, step: Math.max(...merchantSteps), names: p.merchantNames, verified: false, amountMinor });
    if (providerSteps.length > 0) {
      const attemptId = `gwa_transaction_${ids.transactionId}`;
      payments.push({ attemptId, step: providerSteps[0]!, names: false, verified: notified, amountMinor });
    }
  }
  return { preparation: preparationOf(ids.preparationId, p, payments), payments };
}

type Deliver = () => Promise<void>;
type Provider = 'gwa' | 'gwc';

/** One world per provider and batch: its own organization, integration, endpoint and copies of the template preparation. */
export interface PropertyEnv {
  app: Pick<TestApp, 'admin' | 'orm' | 'url'>;
  templates: Record<Provider, Template>;
}

async function newWorld(env: PropertyEnv, provider: Provider) {
  const call = async (procedure: string, input: unknown) => {
    const res = await env.app.admin<any>(procedure, input);
    if (res.status !== 200) throw new Error(`${procedure}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const organization = await call('organizations.create', { name: 'Property' });
  const integration = await call('integrations.create', { organizationId: organization.id, provider, environment: 'sandbox' });
  const secret = newSecret();
  const keys = newKeys();
  const endpoint = await call(
    'webhookEndpoints.create',
    provider === 'gwc' ? { integrationId: integration.id, signingSecret: secret } : { integrationId: integration.id, ...keys },
  );
  return {
    organizationId: organization.id as string,
    integrationId: integration.id as string,
    endpointId: endpoint.id as string,
    secret,
    keys,
  };
}
type World = Awaited<ReturnType<typeof newWorld>>;

/** Copies of the template preparation in the world's integration (preparations are append-only; inserts are allowed). */
async function copyPreparations(
  orm: MikroORM,
  template: Template,
  world: { organizationId: string; integrationId: string },
  ids: string[],
) {
  const sql = rawSql(orm);
  const columns = (
    await sql(`select column_name from information_schema.columns where table_name = 'preparations' order by ordinal_position`)
  ).map((c) => c.column_name as string);
  const select = columns.map((c) =>
    c === 'id'
      ? 'x.id::uuid'
      : c === 'idempotency_key'
        ? `'property-' || x.id`
        : c === 'organization_id'
          ? '?::uuid'
          : c === 'integration_id'
            ? '?::uuid'
            : `p."${c}"`,
  );
  await sql(
    `insert into preparations (${columns.map((c) => `"${c}"`).join(', ')})
     select ${select.join(', ')} from preparations p cross join unnest(?::text[]) as x(id) where p.id = ?`,
    [world.organizationId, world.integrationId, `{${ids.join(',')}}`, template.preparationId],
  );
}

/** A history's deliveries of one world, and its model once they all ran. */
interface Planned {
  deliveries: Deliver[];
  model: () => ReturnType<typeof model>;
  preparationId: string;
}

const contextOf = (provider: Provider, world: World) => ({
  apiKeyId: '',
  provider,
  scopes: [],
  organizationId: world.organizationId,
  integrationId: world.integrationId,
  environment: 'sandbox' as const,
});

/** The merchant's report of one moment (endpoints 3 and 13). */
function reportOf(
  step: number,
  amount: number,
  base: number,
  fields: { attemptId: string; source: 'api' | 'merchant_webhook'; enrichmentRequestId?: string; identity: Record<string, string> },
): PaymentReport {
  const { captured, refunded } = amountsOf(step, amount);
  return {
    eventId: `evt_${crypto.randomUUID()}`,
    attemptId: fields.attemptId,
    status: STEPS[step]!.status,
    currency: 'usd',
    amountMinor: amount,
    capturedAmountMinor: captured,
    refundedAmountMinor: refunded,
    occurredAt: new Date(momentAt(base, step) * 1000).toISOString(),
    source: fields.source,
    ...fields.identity,
    ...(fields.enrichmentRequestId ? { enrichmentRequestId: fields.enrichmentRequestId } : {}),
  } as PaymentReport;
}

function planGwc(orm: MikroORM, world: World, p: PreparationHistory, total: number, base: number): Planned {
  const ctx = contextOf('gwc', world);
  const endpoint = {
    scope: { organizationId: world.organizationId, integrationId: world.integrationId, environment: 'sandbox' as const },
    endpointId: world.endpointId,
    secrets: [{ publicKey: null, secret: world.secret }],
  };
  const ids = { preparationId: crypto.randomUUID(), attemptId: `att_${crypto.randomUUID()}`, pi: newPaymentIntentId() };
  const accepted = p.merchant.map(() => false);
  const amount = p.mismatch ? total - 1 : total;
  const deliveries: Deliver[] = [];
  LIFECYCLES[p.lifecycle].forEach((step, k) => {
    const at = momentAt(base, step);
    const m = p.merchant[k]!;
    if (m.include) {
      const report = reportOf(step, amount, base, {
        attemptId: ids.attemptId,
        source: m.source,
        identity: m.withPaymentIntent ? { paymentIntentId: ids.pi } : {},
        ...(p.merchantNames ? { enrichmentRequestId: ids.preparationId } : {}),
      });
      const send: Deliver = async () => {
        try {
          await recordPaymentReport(poolUnitOfWork(orm), { ctx, provider: 'gwc', report, requestId: 'req_property' });
          accepted[k] = true;
        } catch (err) {
          // A merchant report of an earlier moment than one already recorded is refused (409); it adds nothing.
          if (!(err instanceof DomainError && err.type === 'conflict')) throw err;
        }
      };
      deliveries.push(send, ...(m.duplicate ? [send] : []));
    }
    const v = p.provider[k]!;
    if (step > 0 && v.include) {
      const { refunded } = amountsOf(step, amount);
      const metadata = p.providerMetadata ? { svc_preparation_id: ids.preparationId } : {};
      const object =
        step === 1
          ? paymentIntent({ id: ids.pi, amount, amount_received: amount, status: 'succeeded', metadata })
          : charge(ids.pi, { amount, amount_captured: amount, amount_refunded: refunded, refunded: step === 3, metadata });
      const event = gwcEvent(step === 1 ? 'payment_intent.succeeded' : 'charge.refunded', object, { created: at });
      const delivery = signed(world.secret, event);
      const send: Deliver = async () => {
        const ack = await receiveGwcEvent(poolUnitOfWork(orm), {
          endpoint,
          header: delivery.header,
          rawBody: Buffer.from(delivery.body),
          requestId: 'req_property',
          // Every delivery here is signed correctly: a refusal note would be a failure the model reports anyway.
          refusals: coalescedRefusalNotes(poolDatabase(orm), (err) => {
            throw err;
          }),
        });
        // Provider evidence is never refused for arriving out of order.
        if (ack.status === 'rejected') throw new Error(`A provider event was rejected: ${delivery.body}`);
      };
      deliveries.push(send, ...(v.duplicate ? [send] : []));
    }
  });
  return { deliveries, model: () => model(p, ids, total, accepted), preparationId: ids.preparationId };
}

function planGwa(orm: MikroORM, world: World, p: GwaPreparationHistory, total: number, base: number): Planned {
  const ctx = contextOf('gwa', world);
  const endpoint = {
    scope: { organizationId: world.organizationId, integrationId: world.integrationId, environment: 'sandbox' as const },
    endpointId: world.endpointId,
    keys: [world.keys],
  };
  const ids = {
    preparationId: crypto.randomUUID(),
    attemptId: `att_${crypto.randomUUID()}`,
    transactionId: `t${crypto.randomUUID().replace(/-/g, '').slice(0, 12)}`,
  };
  const amount = p.mismatch ? total - 1 : total;
  const deliveries: Deliver[] = [];
  const steps: readonly number[] = GWA_LIFECYCLES[p.lifecycle];
  steps.forEach((step, k) => {
    const m = p.merchant[k]!;
    if (!m.include) return;
    const report = reportOf(step, amount, base, {
      attemptId: ids.attemptId,
      source: m.source,
      identity: m.withTransactionId ? { transactionId: ids.transactionId } : {},
      ...(p.merchantNames ? { enrichmentRequestId: ids.preparationId } : {}),
    });
    // Consistent reports of one payment are never refused, whatever arrived before (P5, P8): a refusal fails the property.
    const send: Deliver = async () => {
      try {
        await recordPaymentReport(poolUnitOfWork(orm), { ctx, provider: 'gwa', report, requestId: 'req_property' });
      } catch (err) {
        const issues = err instanceof DomainError ? JSON.stringify(err.issues) : String(err);
        throw new Error(`A gwa report (${report.status}) was refused: ${issues}, history ${JSON.stringify(p)}`, { cause: err });
      }
    };
    deliveries.push(send, ...(m.duplicate ? [send] : []));
  });
  if (steps.includes(1) || p.lifecycle === 'declined') {
    // Seconds after `base`: early is between the capture (60) and the first refund (120), late after the last (180).
    const notifications =
      p.lifecycle === 'declined'
        ? [{ kind: 'transaction_settlement_declined', n: p.settled, early: 80, late: 80 }]
        : [
            { kind: 'transaction_settled', n: p.settled, early: 80, late: 200 },
            { kind: 'transaction_disbursed', n: p.disbursed, early: 100, late: 220 },
          ];
    for (const { kind, n, early, late } of notifications) {
      if (!n.include) continue;
      const timestamp = new Date((base + (n.late ? late : early)) * 1000);
      const form = transactionNotification(world.keys, kind, ids.transactionId, {
        amountMinor: amount,
        timestamp,
        merchantAccountId: 'property_merchant',
      });
      const send: Deliver = async () => {
        const ack = await receiveNotification(poolUnitOfWork(orm), {
          endpoint,
          signature: form.gwa_signature,
          payload: form.gwa_payload,
          requestId: 'req_property',
        });
        // A notification of the payment is never refused for arriving out of order.
        if (ack.status === 'rejected') throw new Error(`A ${kind} notification was rejected, history ${JSON.stringify(p)}`);
      };
      deliveries.push(send, ...(n.duplicate ? [send] : []));
    }
  }
  return { deliveries, model: () => gwaModel(p, ids, total), preparationId: ids.preparationId };
}

/** Run one world's histories concurrently and check every view against the model. */
async function checkWorld(env: PropertyEnv, provider: Provider, histories: (History | GwaHistory)[]): Promise<void> {
  if (histories.length === 0) return;
  const { orm } = env.app;
  const world = await newWorld(env, provider);
  const template = env.templates[provider];
  const base = Math.floor(Date.now() / 1000) - 3600;
  const runs: Deliver[][] = [];
  const planned: Planned[] = [];
  for (const history of histories) {
    const deliveries: Deliver[] = [];
    for (const p of history.preparations) {
      const plan =
        provider === 'gwc'
          ? planGwc(orm, world, p as PreparationHistory, template.amountMinor, base)
          : planGwa(orm, world, p as GwaPreparationHistory, template.amountMinor, base);
      planned.push(plan);
      deliveries.push(...plan.deliveries);
    }
    const keyed = deliveries.map((d, k) => ({ d, key: history.order[k % history.order.length]! * 64 + k }));
    runs.push(keyed.sort((a, b) => a.key - b.key).map((x) => x.d));
  }
  await copyPreparations(
    orm,
    template,
    world,
    planned.map((x) => x.preparationId),
  );
  await Promise.all(
    runs.map(async (deliveries) => {
      for (const d of deliveries) await d();
    }),
  );
  const expected = planned.map((x) => x.model());
  await compareViews(
    env,
    provider,
    world.integrationId,
    expected.map((x) => x.preparation),
    expected.flatMap((x) => x.payments),
  );
}

/** One batch: a gwc world and a gwa world, run at once. */
export async function checkBatch(env: PropertyEnv, batch: { gwc: History[]; gwa: GwaHistory[] }): Promise<void> {
  await Promise.all([checkWorld(env, 'gwc', batch.gwc), checkWorld(env, 'gwa', batch.gwa)]);
}

const RANGE = { from: '2000-01-01T00:00:00.000Z', to: '2100-01-01T00:00:00.000Z' };

async function compareViews(
  env: PropertyEnv,
  provider: Provider,
  integrationId: string,
  preparations: ModelPreparation[],
  payments: ModelPayment[],
): Promise<void> {
  const admin = async (procedure: string, input: Record<string, unknown>) => {
    const res = await env.app.admin<any>(procedure, input);
    if (res.status !== 200) throw new Error(`${procedure}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const fail = (what: string, actual: unknown, expected: unknown) => {
    throw new Error(`${what} differs from the model:\nactual   ${JSON.stringify(actual)}\nexpected ${JSON.stringify(expected)}`);
  };

  // evidence.list: state and amounts per preparation, and the payment that stands for it.
  const rows: any[] = [];
  for (let cursor: string | undefined; ;) {
    const page = await admin('evidence.list', { integrationId, ...RANGE, limit: 200, ...(cursor ? { cursor } : {}) });
    rows.push(...page.rows);
    if (!page.nextCursor) break;
    cursor = page.nextCursor;
  }
  const byId = new Map(rows.map((r) => [r.preparationId, r]));
  if (rows.length !== preparations.length) fail('evidence.list row count', rows.length, preparations.length);
  for (const p of preparations) {
    const r = byId.get(p.id);
    const actual = r && {
      state: r.state,
      captured: r.capturedAmountMinor,
      refunded: r.refundedAmountMinor,
      net: r.netAmountMinor,
      attemptId: r.payment?.attemptId ?? null,
      evidence: r.evidence?.source ?? null,
    };
    const expected = {
      state: p.state,
      captured: p.captured,
      refunded: p.refunded,
      net: p.captured - p.refunded,
      attemptId: p.payment?.attemptId ?? null,
      evidence: p.captured > 0 ? (p.payment!.verified ? 'provider_verified' : 'merchant_report') : null,
    };
    if (JSON.stringify(actual) !== JSON.stringify(expected))
      fail(`evidence.list of ${p.id} (${JSON.stringify(p.history)})`, actual, expected);
  }

  // evidence.summary = the model's totals = the sum of the list's rows = the sum of the CSV's rows.
  const summary = await admin('evidence.summary', { integrationId, ...RANGE });
  const figures = (list: { state: string; net: number }[]) =>
    Object.fromEntries(
      EVIDENCE_STATES.map((s) => {
        const of = list.filter((x) => x.state === s);
        return [s, { count: of.length, netMinor: String(of.reduce((sum, x) => sum + x.net, 0)) }];
      }),
    );
  const modelFigures = figures(preparations.map((p) => ({ state: p.state, net: p.captured - p.refunded })));
  const summaryFigures = summary.rows.length === 0 ? figures([]) : summary.rows[0].states;
  if (summary.rows.length !== 1 || JSON.stringify(summaryFigures) !== JSON.stringify(modelFigures))
    fail('evidence.summary', summary.rows, modelFigures);
  const listFigures = figures(rows.map((r) => ({ state: r.state, net: r.netAmountMinor })));
  if (JSON.stringify(listFigures) !== JSON.stringify(modelFigures)) fail('the sum of evidence.list', listFigures, modelFigures);
  const link = await admin('evidence.export', { integrationId, ...RANGE });
  const csv = await fetch(`${env.app.url}${link.path}`, { headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
  const csvFigures = figures(csvObjects(await csv.text()).rows.map((r) => ({ state: r.state!, net: Number(r.net_amount_minor) })));
  if (JSON.stringify(csvFigures) !== JSON.stringify(modelFigures)) fail('the sum of the CSV', csvFigures, modelFigures);

  // payments.list: every payment that stands for itself, its projection and its evidence.
  const listed: any[] = [];
  for (let cursor: string | undefined; ;) {
    const page = await admin('payments.list', { integrationId, limit: 100, ...(cursor ? { cursor } : {}) });
    listed.push(...page.payments);
    if (!page.nextCursor) break;
    cursor = page.nextCursor;
  }
  const paymentKey = (x: { attemptId: string; status: string; captured: number; refunded: number; verified: boolean; amount: number }) =>
    JSON.stringify([x.attemptId, x.status, x.captured, x.refunded, x.verified, x.amount]);
  const actualPayments = listed
    .map((x) =>
      paymentKey({
        attemptId: x.attemptId,
        status: x.status,
        captured: x.capturedAmountMinor,
        refunded: x.refundedAmountMinor,
        verified: x.verifiedCapture,
        amount: x.amountMinor,
      }),
    )
    .sort();
  const expectedPayments = payments
    .map((x) => {
      const amounts = amountsOf(x.step, x.amountMinor);
      return paymentKey({
        attemptId: x.attemptId,
        status: STEPS[x.step]!.status,
        captured: amounts.captured,
        refunded: amounts.refunded,
        verified: x.verified,
        amount: x.amountMinor,
      });
    })
    .sort();
  if (JSON.stringify(actualPayments) !== JSON.stringify(expectedPayments)) fail('payments.list', actualPayments, expectedPayments);

  // preparations.unconfirmed: preparations without a provider-verified capture, and payments naming nothing without
  // one; gwc's only (docs/gwc-events.md, "Missing confirmations"), so a gwa integration has none.
  const unconfirmed = (await admin('preparations.unconfirmed', { integrationId })).preparations as any[];
  const actualUnconfirmed = unconfirmed.map((u) => (u.kind === 'preparation' ? u.id : `payment:${u.payment.id}`));
  const gwc = provider === 'gwc';
  const expectedPreparationIds = gwc ? preparations.filter((p) => !p.payment?.verified).map((p) => p.id) : [];
  const namelessPayments = gwc ? payments.filter((x) => !x.names && !x.verified).length : 0;
  const unconfirmedPreparations = actualUnconfirmed.filter((u) => !u.startsWith('payment:'));
  if (
    JSON.stringify([...unconfirmedPreparations].sort()) !== JSON.stringify([...expectedPreparationIds].sort()) ||
    actualUnconfirmed.length - unconfirmedPreparations.length !== namelessPayments
  ) {
    fail('preparations.unconfirmed', actualUnconfirmed, { preparations: expectedPreparationIds, namelessPayments });
  }
}

/**
 * Histories per world, all run at once: at most 3 preparations and 3 payments without a preparation each, so the
 * missing-confirmation list of one world (at most 200 rows) always holds them all. A batch is one gwc world and one
 * gwa world of this many histories each.
 */
export const WORLD = 15;
export const BATCH = 2 * WORLD;
