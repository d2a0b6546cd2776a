import type { UnitOfWork } from '../../unit-of-work.js';
import type { WebhookStore } from '../ports.js';
import type { DeliveryStatus } from '../types.js';
import { RECOMMENDED_EVENT_TYPES } from './events.js';
import { webhookPath, type WebhookRuntime } from '../runtime.js';
import { DomainError } from '../../errors.js';
import { FACT_KEY_COUNT, factsOfKey } from '../../evidence/evidence-state.js';

const HOUR_MS = 60 * 60 * 1000;

/** What the spec says to review for one endpoint when a confirmation is missing. */
export interface EndpointCheck {
  endpointId: string;
  url: string;
  status: 'active' | 'disabled';
  mode: 'live' | 'test';
  recommendedEventTypesDelivered: string[];
  recommendedEventTypesMissing: string[];
  lastDelivery: DeliveryStatus['lastDelivery'];
  lastRefusal: DeliveryStatus['lastRefusal'];
  hasSecret: boolean;
  secretAgeHours: number | null;
}
const LIMIT = 200;

/** The evidence fact keys without a provider-verified capture: what a missing confirmation is (docs/evidence.md, "Facts"). */
const UNCONFIRMED_KEYS = Array.from({ length: FACT_KEY_COUNT }, (_, key) => key).filter((key) => !factsOfKey(key).verifiedCapture);

/**
 * Missing confirmations (spec: Events 2): gwc preparations whose payment has no provider-verified capture yet, oldest
 * first, each with what the spec says to review instead of retrying the payment: per endpoint of the integration its
 * mode, which recommended event types it has ever delivered, its last delivery and outcome, its last refusal and the
 * age of its signing secret. An integration without an endpoint shows none, which is itself the finding.
 */
export async function listUnconfirmedPreparations(
  storage: UnitOfWork<{ webhooks: WebhookStore }>,
  runtime: WebhookRuntime | undefined,
  input: { integrationId?: string | undefined; olderThanHours?: number | undefined },
  now = new Date(),
) {
  if (!runtime) throw new DomainError('internal_error', 'Provider webhooks are not configured on this service');
  const store = storage.store.webhooks;
  const rows = await store.unconfirmedGwcPreparations({
    integrationId: input.integrationId,
    createdBefore: new Date(now.getTime() - (input.olderThanHours ?? 0) * HOUR_MS),
    limit: LIMIT,
    factKeys: UNCONFIRMED_KEYS,
  });
  const endpoints = await store.endpointsOfIntegrations([...new Set(rows.map((r) => r.integrationId))]);
  const delivery = await store.deliveryStatusOf(endpoints.map((e) => e.id));
  const checks = new Map<string, EndpointCheck[]>();
  for (const e of endpoints) {
    const d = delivery.get(e.id)!;
    const list = checks.get(e.integrationId) ?? [];
    list.push({
      endpointId: e.id,
      url: `${runtime.publicUrl()}${webhookPath('gwc', e.id)}`,
      status: e.status,
      mode: e.environment === 'production' ? 'live' : 'test',
      recommendedEventTypesDelivered: RECOMMENDED_EVENT_TYPES.filter((k) => d.kinds.includes(k)),
      recommendedEventTypesMissing: RECOMMENDED_EVENT_TYPES.filter((k) => !d.kinds.includes(k)),
      lastDelivery: d.lastDelivery,
      lastRefusal: d.lastRefusal,
      hasSecret: Boolean(e.privateKeyEnc),
      secretAgeHours: e.credentialsUpdatedAt ? Math.floor((now.getTime() - e.credentialsUpdatedAt.getTime()) / HOUR_MS) : null,
    });
    checks.set(e.integrationId, list);
  }
  return {
    preparations: rows.map((r) => ({
      kind: r.kind,
      id: r.id,
      organizationId: r.organizationId,
      integrationId: r.integrationId,
      environment: r.environment,
      amountMinor: r.amountMinor,
      currency: r.currency,
      createdAt: r.createdAt.toISOString(),
      payment: r.payment && { ...r.payment, capturedAmountMinor: r.payment.capturedAmountMinor ?? 0 },
      endpoints: checks.get(r.integrationId) ?? [],
    })),
  };
}
