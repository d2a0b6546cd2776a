import { DomainError } from '../errors.js';
import type { UnitOfWork } from '../unit-of-work.js';
import { RECOMMENDED_EVENT_TYPES } from './gwc/events.js';
import type { WebhookStore } from './ports.js';
import type { DeliveryStatus, WebhookEndpoint } from './types.js';
import { currentKeySlot, previousKeySlot, webhookPath, WEBHOOK_PROVIDERS, type WebhookProvider, type WebhookRuntime } from './runtime.js';

/**
 * After `setCredentials`, deliveries signed with the previous secret are still accepted for this long: gwa
 * notifications signed before the rotation and retried afterwards are not lost (docs/decisions.md, "gwa webhook");
 * gwc keeps the previous secret 24 hours, as the provider does when a secret is rolled (docs/gwc-events.md).
 */
export const CREDENTIAL_GRACE_MS: Record<WebhookProvider, number> = { gwa: 72 * 60 * 60 * 1000, gwc: 24 * 60 * 60 * 1000 };

export interface EndpointView {
  id: string;
  provider: WebhookProvider;
  organizationId: string;
  integrationId: string;
  environment: string;
  url: string;
  status: 'active' | 'disabled';
  /** gwa only: the public key is not secret (it travels in every signature). Private keys and signing secrets are never shown. */
  publicKey: string | null;
  hasCredentials: boolean;
  previousPublicKey: string | null;
  previousValidUntil: string | null;
  credentialsUpdatedAt: string | null;
  /** gwc only: the event types to enable at the provider for this endpoint (docs/gwc-events.md). */
  recommendedEventTypes: string[];
  disabledAt: string | null;
  createdAt: string;
}

const providerOf = (e: WebhookEndpoint): WebhookProvider => e.provider as WebhookProvider;

function view(runtime: WebhookRuntime, e: WebhookEndpoint, now = new Date()): EndpointView {
  const graceOpen = e.previousValidUntil !== null && e.previousValidUntil.getTime() > now.getTime();
  const provider = providerOf(e);
  return {
    id: e.id,
    provider,
    organizationId: e.organizationId,
    integrationId: e.integrationId,
    environment: e.environment,
    url: `${runtime.publicUrl()}${webhookPath(provider, e.id)}`,
    status: e.status,
    publicKey: e.publicKey,
    hasCredentials: Boolean(e.privateKeyEnc && (provider === 'gwc' || e.publicKey)),
    previousPublicKey: graceOpen ? e.previousPublicKey : null,
    previousValidUntil: graceOpen ? e.previousValidUntil!.toISOString() : null,
    credentialsUpdatedAt: e.credentialsUpdatedAt?.toISOString() ?? null,
    recommendedEventTypes: provider === 'gwc' ? [...RECOMMENDED_EVENT_TYPES] : [],
    disabledAt: e.disabledAt?.toISOString() ?? null,
    createdAt: e.createdAt.toISOString(),
  };
}

const notConfigured = () => new DomainError('internal_error', 'Provider webhooks are not configured on this service');

/** What `create` and `setCredentials` accept: the gwa key pair, or the gwc signing secret. */
export interface Credentials {
  publicKey?: string | undefined;
  privateKey?: string | undefined;
  signingSecret?: string | undefined;
}

/** The secret to store for the endpoint's provider, or a 400 naming the field that does not belong (nothing stored). */
function secretOf(provider: WebhookProvider, c: Credentials): { publicKey: string | null; secret: string } | undefined {
  const gwaKeys = c.publicKey !== undefined || c.privateKey !== undefined;
  if (provider === 'gwa' && c.signingSecret !== undefined)
    throw wrongCredentials('signingSecret', 'A gwa endpoint takes publicKey and privateKey');
  if (provider === 'gwc' && gwaKeys) {
    throw wrongCredentials(c.publicKey !== undefined ? 'publicKey' : 'privateKey', 'A gwc endpoint takes its signingSecret (whsec_…)');
  }
  if (provider === 'gwa')
    return c.publicKey !== undefined && c.privateKey !== undefined ? { publicKey: c.publicKey, secret: c.privateKey } : undefined;
  return c.signingSecret !== undefined ? { publicKey: null, secret: c.signingSecret } : undefined;
}

const wrongCredentials = (path: string, message: string) =>
  new DomainError('validation_error', message, [{ code: 'credentials_not_for_provider', path, message }]);

type Storage = UnitOfWork<{ webhooks: WebhookStore }>;

export async function createEndpoint(
  storage: Storage,
  runtime: WebhookRuntime | undefined,
  input: { integrationId: string } & Credentials,
): Promise<EndpointView> {
  if (!runtime) throw notConfigured();
  const store = storage.store.webhooks;
  const integration = await store.integrationForEndpoint(input.integrationId);
  if (!integration) throw new DomainError('not_found', `No integration ${input.integrationId}`);
  const provider = integration.provider as WebhookProvider;
  if (!WEBHOOK_PROVIDERS.includes(provider)) {
    // gwb merchants verify the provider's signatures in their own handler and report (spec: Security 5).
    throw new DomainError('validation_error', 'Webhook endpoints exist only for gwa and gwc integrations', [
      {
        code: 'integration_provider_unsupported',
        path: 'integrationId',
        message: `This is a ${integration.provider} integration; its merchant verifies provider deliveries and reports payments instead`,
      },
    ]);
  }
  const credentials = secretOf(provider, input);
  const id = crypto.randomUUID();
  const now = new Date();
  const endpoint: WebhookEndpoint = {
    id,
    organizationId: integration.organizationId,
    integrationId: integration.id,
    environment: integration.environment,
    provider,
    status: 'active',
    publicKey: credentials?.publicKey ?? null,
    privateKeyEnc: credentials ? runtime.cipher.encrypt(credentials.secret, currentKeySlot(id)) : null,
    previousPublicKey: null,
    previousPrivateKeyEnc: null,
    previousValidUntil: null,
    credentialsUpdatedAt: credentials ? now : null,
    disabledAt: null,
    createdAt: now,
  };
  await store.insertEndpoint(endpoint);
  return view(runtime, endpoint, now);
}

export async function listEndpoints(
  storage: Storage,
  runtime: WebhookRuntime | undefined,
  input: { integrationId?: string | undefined },
): Promise<{ endpoints: (EndpointView & { delivery: DeliveryStatus })[] }> {
  if (!runtime) throw notConfigured();
  const store = storage.store.webhooks;
  const rows = await store.listEndpoints({ integrationId: input.integrationId || undefined, limit: 500 });
  const delivery = await store.deliveryStatusOf(rows.map((e) => e.id));
  return { endpoints: rows.map((e) => ({ ...view(runtime, e), delivery: delivery.get(e.id)! })) };
}

async function load(store: WebhookStore, id: string): Promise<WebhookEndpoint> {
  const endpoint = await store.endpointById(id);
  if (!endpoint) throw new DomainError('not_found', `No webhook endpoint ${id}`);
  return endpoint;
}

/** Disabling is final: deliveries then answer 410, which tells the provider to stop. Disabling twice keeps the first time. */
export async function disableEndpoint(storage: Storage, runtime: WebhookRuntime | undefined, input: { id: string }): Promise<EndpointView> {
  if (!runtime) throw notConfigured();
  const store = storage.store.webhooks;
  const endpoint = await load(store, input.id);
  if (endpoint.status === 'disabled') return view(runtime, endpoint);
  const disabled = { ...endpoint, status: 'disabled' as const, disabledAt: new Date() };
  await store.setEndpointStatus(endpoint.id, disabled);
  return view(runtime, disabled);
}

/**
 * Set or rotate the endpoint's secret (gwa key pair, gwc signing secret). The one it replaces stays valid for the
 * provider's `CREDENTIAL_GRACE_MS`; a rotation within the grace period replaces the previous one (only one is kept).
 * Sending the secret already in use changes nothing (the real previous secret and its grace period stay). The
 * endpoint's row is locked from the read of its secrets to their write, so two concurrent rotations apply one after
 * the other: the second keeps the first's secret as the previous one, and none is lost.
 */
export async function setCredentials(
  storage: Storage,
  runtime: WebhookRuntime | undefined,
  input: { id: string } & Credentials,
  now = new Date(),
): Promise<EndpointView> {
  if (!runtime) throw notConfigured();
  return storage.transaction(async ({ webhooks: store }) => {
    const endpoint = await store.lockEndpoint(input.id);
    if (!endpoint) throw new DomainError('not_found', `No webhook endpoint ${input.id}`);
    if (endpoint.status === 'disabled') {
      throw new DomainError('conflict', 'This webhook endpoint is disabled; register a new endpoint', [
        { code: 'endpoint_disabled', path: 'id', message: 'A disabled endpoint cannot be given credentials' },
      ]);
    }
    const provider = providerOf(endpoint);
    const credentials = secretOf(provider, input);
    if (!credentials) {
      const path = provider === 'gwa' ? 'privateKey' : 'signingSecret';
      throw wrongCredentials(path, provider === 'gwa' ? 'Send publicKey and privateKey' : 'Send the signingSecret (whsec_…)');
    }
    const currentSecret = endpoint.privateKeyEnc ? runtime.cipher.decrypt(endpoint.privateKeyEnc, currentKeySlot(endpoint.id)) : null;
    if (currentSecret === credentials.secret && endpoint.publicKey === credentials.publicKey) return view(runtime, endpoint, now);
    const previous =
      currentSecret !== null
        ? {
            publicKey: endpoint.publicKey,
            privateKeyEnc: runtime.cipher.encrypt(currentSecret, previousKeySlot(endpoint.id)),
            validUntil: new Date(now.getTime() + CREDENTIAL_GRACE_MS[provider]),
          }
        : undefined;
    const current = {
      publicKey: credentials.publicKey,
      privateKeyEnc: runtime.cipher.encrypt(credentials.secret, currentKeySlot(endpoint.id)),
      credentialsUpdatedAt: now,
    };
    await store.setEndpointCredentials(endpoint.id, { ...current, ...(previous && { previous }) });
    const updated: WebhookEndpoint = {
      ...endpoint,
      ...current,
      ...(previous && {
        previousPublicKey: previous.publicKey,
        previousPrivateKeyEnc: previous.privateKeyEnc,
        previousValidUntil: previous.validUntil,
      }),
    };
    return view(runtime, updated, now);
  });
}
