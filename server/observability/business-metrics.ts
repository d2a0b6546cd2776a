import { Counter, Histogram } from 'prom-client';
import { ErrorTypeSchema, IssueCategorySchema } from '../../contract/common/errors.js';
import { boundedLabel, registry } from './registry.js';

/**
 * Business counters, each incremented where the domain decides the outcome
 * (one place per event, docs/operations.md). Label values come from closed sets
 * (providers, outcomes, error types, issue categories), never from a request:
 * no id, key, amount or merchant datum can become a series.
 */

const PROVIDERS = ['gwa', 'gwb', 'gwc'] as const;
type Provider = (typeof PROVIDERS)[number];
const ERROR_TYPES: ReadonlySet<string> = new Set(ErrorTypeSchema.options);
const CATEGORIES: ReadonlySet<string> = new Set(IssueCategorySchema.options);

/** Why a domain call refused: its DomainError type, or `internal` for an unexpected failure. */
export type Refusal = { type: string } | undefined;
const reasonOf = (refusal: Refusal) => (refusal ? boundedLabel(ERROR_TYPES, refusal.type) : 'internal');

/**
 * A hot series: bound once, exposed at zero from the start (so rates exist before the first event), and counted
 * with a plain addition; the sum is handed to prom-client when it collects, i.e. on every scrape (and every
 * cluster aggregation). prom-client's own `inc` hashes the label set on every call, even on a bound child.
 */
class HotSeries {
  private pending = 0;
  private readonly child: Counter.Internal;
  constructor(counter: Counter<string>, values: string[]) {
    this.child = counter.labels(...values);
    this.child.inc(0);
  }
  inc(): void {
    this.pending += 1;
  }
  flush(): void {
    if (this.pending === 0) return;
    this.child.inc(this.pending);
    this.pending = 0;
  }
}
const hotSeries: HotSeries[] = [];
function bound(counter: Counter<string>, ...values: string[]): HotSeries {
  const series = new HotSeries(counter, values);
  hotSeries.push(series);
  return series;
}
/** The `collect` of a counter with hot series: add what they counted since the last scrape. */
function flushHotSeries(): void {
  for (const series of hotSeries) series.flush();
}

const paymentReports = new Counter({
  name: 'svc_payment_reports_total',
  help: 'Payment reports (endpoints 3, 7, 13 and gwa webhook effects) by provider and outcome: recorded, duplicate (an identical retry), refused (reason: error type) or failed (internal).',
  labelNames: ['provider', 'outcome', 'reason'] as const,
  registers: [registry],
  collect: flushHotSeries,
});
const reportSeries = Object.fromEntries(
  PROVIDERS.map((p) => [
    p,
    { recorded: bound(paymentReports, p, 'recorded', 'none'), duplicate: bound(paymentReports, p, 'duplicate', 'none') },
  ]),
) as Record<Provider, { recorded: HotSeries; duplicate: HotSeries }>;

export const paymentReportMetrics = {
  accepted(provider: Provider, duplicate: boolean): void {
    reportSeries[provider][duplicate ? 'duplicate' : 'recorded'].inc();
  },
  refused(provider: Provider, refusal: Refusal): void {
    paymentReports.inc({ provider, outcome: refusal ? 'refused' : 'failed', reason: reasonOf(refusal) });
  },
};

/** Invoice-backed preparation endpoints: 1, 6, 11 (enrichment) and 12 (gwc payment preparation). */
export const PREPARATION_ENDPOINTS = ['gwa_enrichment', 'gwb_enrichment', 'gwc_enrichment', 'gwc_payment_preparation'] as const;
type PreparationEndpoint = (typeof PREPARATION_ENDPOINTS)[number];
/** Refusal categories of a preparation: an issue category, or what refused it without an issue. */
const PREPARATION_REFUSALS: ReadonlySet<string> = new Set([...CATEGORIES, 'not_found', 'idempotency', 'internal']);

const preparations = new Counter({
  name: 'svc_preparations_total',
  help: 'Invoice-backed preparations by endpoint and mode: enhanced, ordinary, or refused (category: the first issue category, not_found, idempotency or internal). A replay counts with the mode it answered.',
  labelNames: ['endpoint', 'mode', 'category'] as const,
  registers: [registry],
  collect: flushHotSeries,
});
const preparationSeries = Object.fromEntries(
  PREPARATION_ENDPOINTS.map((e) => [
    e,
    { enhanced: bound(preparations, e, 'enhanced', 'none'), ordinary: bound(preparations, e, 'ordinary', 'none') },
  ]),
) as Record<PreparationEndpoint, { enhanced: HotSeries; ordinary: HotSeries }>;

export const preparationMetrics = {
  prepared(endpoint: PreparationEndpoint, mode: 'enhanced' | 'ordinary'): void {
    preparationSeries[endpoint][mode].inc();
  },
  refused(endpoint: PreparationEndpoint, category: string): void {
    preparations.inc({ endpoint, mode: 'refused', category: boundedLabel(PREPARATION_REFUSALS, category) });
  },
};

/** What became of one webhook delivery. */
export const WEBHOOK_OUTCOMES = [
  'recorded',
  'duplicate',
  'no_payment_effect',
  'rejected',
  'invalid_signature',
  'invalid_event',
  'endpoint_not_found',
  'endpoint_disabled',
  'credentials_required',
  'connection_unavailable',
  'payload_too_large',
  'unsupported_media_type',
  'failed',
] as const;
const WEBHOOK_OUTCOME_SET: ReadonlySet<string> = new Set(WEBHOOK_OUTCOMES);
const WEBHOOK_PROVIDERS: ReadonlySet<string> = new Set(PROVIDERS);

const webhookDeliveries = new Counter({
  name: 'svc_webhook_deliveries_total',
  help: 'Provider webhook deliveries by provider and outcome (recorded, duplicate, no_payment_effect, rejected, invalid_signature, invalid_event, endpoint refusals, failed).',
  labelNames: ['provider', 'outcome'] as const,
  registers: [registry],
});

export const webhookMetrics = {
  delivered(provider: string, outcome: string): void {
    webhookDeliveries.inc({ provider: boundedLabel(WEBHOOK_PROVIDERS, provider), outcome: boundedLabel(WEBHOOK_OUTCOME_SET, outcome) });
  },
};

/** Error codes a sync run fails with (server/domain/ledger/import-run.ts `summarize`, queue-sync.ts, admin-views.ts). */
const SYNC_FAILURE_CODES: ReadonlySet<string> = new Set([
  'connection_not_active',
  'reauthorization_required',
  'ledger_unauthorized',
  'ledger_throttled',
  'ledger_server',
  'ledger_client',
  'ledger_invalid_grant',
  'ledger_network',
  'internal_error',
  'job_lost',
  'queue_unavailable',
  'failed_by_operator',
]);

const syncRuns = new Counter({
  name: 'svc_sync_runs_total',
  help: 'Ledger sync runs that reached a final state (succeeded or failed; reason: the failure code).',
  labelNames: ['state', 'reason'] as const,
  registers: [registry],
});
const syncRunDuration = new Histogram({
  name: 'svc_sync_run_duration_seconds',
  help: 'Time from a sync run being queued to its final state, by final state.',
  labelNames: ['state'] as const,
  buckets: [1, 5, 15, 30, 60, 120, 300, 600, 1800, 3600, 7200],
  registers: [registry],
});

export const syncRunMetrics = {
  finished(state: 'succeeded' | 'failed', reason: string | null, seconds: number): void {
    syncRuns.inc({ state, reason: reason === null ? 'none' : boundedLabel(SYNC_FAILURE_CODES, reason) });
    syncRunDuration.observe({ state }, Math.max(0, seconds));
  },
};

const invitations = new Counter({
  name: 'svc_invitations_total',
  help: 'Ledger invitations (endpoint 14) sent, or refused (reason: error type; upstream_error when the email could not be delivered).',
  labelNames: ['outcome', 'reason'] as const,
  registers: [registry],
});

export const invitationMetrics = {
  sent(): void {
    invitations.inc({ outcome: 'sent', reason: 'none' });
  },
  refused(refusal: Refusal): void {
    invitations.inc({ outcome: 'refused', reason: reasonOf(refusal) });
  },
};

const rateLimitRefusals = new Counter({
  name: 'svc_rate_limit_refusals_total',
  help: 'Requests to /api/v1 refused with 429 by the per-key token bucket.',
  registers: [registry],
});

export const rateLimitMetrics = {
  refused(): void {
    rateLimitRefusals.inc();
  },
};

const blockedClientRefusals = new Counter({
  name: 'svc_auth_failure_refusals_total',
  help: 'Requests to /api/v1 refused with 429 before any key lookup because their client address failed authentication beyond its burst (SVC_AUTH_FAILURE_BURST).',
  registers: [registry],
  collect: flushHotSeries,
});
const blockedClientSeries = bound(blockedClientRefusals);

export const authFailureMetrics = {
  refused(): void {
    blockedClientSeries.inc();
  },
};
