import type { EntityManager } from '@mikro-orm/postgresql';
import { Integration, WebhookEndpoint } from '../../persistence/entities/index.js';
import { DomainError } from '../../domain/errors.js';
import { currentKeySlot, previousKeySlot, webhookPath, type WebhookRuntime } from './runtime.js';

/**
 * After `setCredentials`, deliveries signed with the previous key pair are still
 * accepted for this long, so notifications signed before the rotation and retried
 * by the provider afterwards are not lost (docs/decisions.md, "gwa webhook").
 */
export const CREDENTIAL_GRACE_MS = 72 * 60 * 60 * 1000;

export interface EndpointView {
  id: string;
  organizationId: string;
  integrationId: string;
  environment: string;
  url: string;
  status: 'active' | 'disabled';
  /** The public key is not secret (it travels in every signature); the private key is never shown. */
  publicKey: string | null;
  hasCredentials: boolean;
  previousPublicKey: string | null;
  previousValidUntil: string | null;
  credentialsUpdatedAt: string | null;
  disabledAt: string | null;
  createdAt: string;
}

function view(runtime: WebhookRuntime, e: WebhookEndpoint, now = new Date()): EndpointView {
  const graceOpen = e.previousValidUntil !== null && e.previousValidUntil !== undefined && e.previousValidUntil.getTime() > now.getTime();
  return {
    id: e.id,
    organizationId: e.organization.id,
    integrationId: e.integration.id,
    environment: e.environment,
    url: `${runtime.publicUrl()}${webhookPath(e.id)}`,
    status: e.status,
    publicKey: e.publicKey ?? null,
    hasCredentials: Boolean(e.publicKey && e.privateKeyEnc),
    previousPublicKey: graceOpen ? (e.previousPublicKey ?? null) : null,
    previousValidUntil: graceOpen ? e.previousValidUntil!.toISOString() : null,
    credentialsUpdatedAt: e.credentialsUpdatedAt?.toISOString() ?? null,
    disabledAt: e.disabledAt?.toISOString() ?? null,
    createdAt: e.createdAt.toISOString(),
  };
}

const notConfigured = () => new DomainError('internal_error', 'gwa webhooks are not configured on this service');

export async function createEndpoint(
  em: EntityManager,
  runtime: WebhookRuntime | undefined,
  input: { integrationId: string; publicKey?: string | undefined; privateKey?: string | undefined },
): Promise<EndpointView> {
  if (!runtime) throw notConfigured();
  const integration = await em.findOne(Integration, { id: input.integrationId }, { populate: ['organization'] });
  if (!integration) throw new DomainError('not_found', `No integration ${input.integrationId}`);
  if (integration.provider !== 'gwa') {
    throw new DomainError('validation_error', 'Webhook endpoints exist only for gwa integrations', [
      { code: 'integration_not_gwa', path: 'integrationId', message: `This is a ${integration.provider} integration` },
    ]);
  }
  const id = crypto.randomUUID();
  const now = new Date();
  const withKeys = input.publicKey !== undefined && input.privateKey !== undefined;
  const endpoint = em.create(WebhookEndpoint, {
    id,
    organization: integration.organization,
    integration,
    environment: integration.environment,
    status: 'active',
    publicKey: withKeys ? input.publicKey! : null,
    privateKeyEnc: withKeys ? runtime.cipher.encrypt(input.privateKey!, currentKeySlot(id)) : null,
    credentialsUpdatedAt: withKeys ? now : null,
    createdAt: now,
  });
  await em.flush();
  return view(runtime, endpoint, now);
}

export async function listEndpoints(
  em: EntityManager,
  runtime: WebhookRuntime | undefined,
  input: { integrationId?: string | undefined },
): Promise<{ endpoints: EndpointView[] }> {
  if (!runtime) throw notConfigured();
  const rows = await em.find(WebhookEndpoint, input.integrationId ? { integration: input.integrationId } : {}, {
    orderBy: { createdAt: 'asc', id: 'asc' },
    limit: 500,
  });
  return { endpoints: rows.map((e) => view(runtime, e)) };
}

async function load(em: EntityManager, id: string): Promise<WebhookEndpoint> {
  const endpoint = await em.findOne(WebhookEndpoint, { id });
  if (!endpoint) throw new DomainError('not_found', `No webhook endpoint ${id}`);
  return endpoint;
}

/** Disabling is final: deliveries then answer 410, which tells the provider to stop. Disabling twice keeps the first time. */
export async function disableEndpoint(
  em: EntityManager,
  runtime: WebhookRuntime | undefined,
  input: { id: string },
): Promise<EndpointView> {
  if (!runtime) throw notConfigured();
  const endpoint = await load(em, input.id);
  if (endpoint.status !== 'disabled') {
    endpoint.status = 'disabled';
    endpoint.disabledAt = new Date();
    await em.flush();
  }
  return view(runtime, endpoint);
}

/**
 * Set or rotate the key pair. The pair it replaces stays valid for
 * `CREDENTIAL_GRACE_MS`; a rotation within the grace period replaces the
 * previous pair (only one previous pair is kept).
 */
export async function setCredentials(
  em: EntityManager,
  runtime: WebhookRuntime | undefined,
  input: { id: string; publicKey: string; privateKey: string },
  now = new Date(),
): Promise<EndpointView> {
  if (!runtime) throw notConfigured();
  const endpoint = await load(em, input.id);
  if (endpoint.status === 'disabled') {
    throw new DomainError('conflict', 'This webhook endpoint is disabled; register a new endpoint', [
      { code: 'endpoint_disabled', path: 'id', message: 'A disabled endpoint cannot be given credentials' },
    ]);
  }
  if (endpoint.publicKey && endpoint.privateKeyEnc) {
    const previousPrivate = runtime.cipher.decrypt(endpoint.privateKeyEnc, currentKeySlot(endpoint.id));
    endpoint.previousPublicKey = endpoint.publicKey;
    endpoint.previousPrivateKeyEnc = runtime.cipher.encrypt(previousPrivate, previousKeySlot(endpoint.id));
    endpoint.previousValidUntil = new Date(now.getTime() + CREDENTIAL_GRACE_MS);
  }
  endpoint.publicKey = input.publicKey;
  endpoint.privateKeyEnc = runtime.cipher.encrypt(input.privateKey, currentKeySlot(endpoint.id));
  endpoint.credentialsUpdatedAt = now;
  await em.flush();
  return view(runtime, endpoint, now);
}
