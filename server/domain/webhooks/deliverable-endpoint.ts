import { DomainError } from '../errors.js';
import { currentKeySlot, previousKeySlot, type WebhookProvider, type WebhookRuntime } from './runtime.js';
import type { EndpointDirectory } from './endpoint-directory.js';
import type { DeliveryEndpoint } from './types.js';
import type { TenantScope } from '../tenant-scope.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const deliveryFailure = (
  type: 'validation_error' | 'not_found' | 'conflict' | 'gone',
  code: string,
  path: string,
  message: string,
) => new DomainError(type, message, [{ code, path, message }]);

/** An endpoint's secret: the gwa key pair (public key + private key) or the gwc signing secret (no public part). */
export interface EndpointSecret {
  publicKey: string | null;
  secret: string;
}

export interface DeliverableSecrets {
  scope: TenantScope;
  endpointId: string;
  /** The current secret first, then the previous one while its grace period lasts. */
  secrets: EndpointSecret[];
}

/**
 * The endpoint a delivery is addressed to, checked in this order (docs/decisions.md, "gwa webhook";
 * docs/gwc-events.md): unknown or malformed id, or an endpoint of another provider, 404 `endpoint_not_found`;
 * disabled 410 `endpoint_disabled`; no secret 409 `credentials_required`; an integration that cannot take events
 * 409 `connection_unavailable`. Nothing of the body is read before.
 */
export async function deliverableSecrets(
  endpoints: EndpointDirectory,
  runtime: WebhookRuntime,
  input: { provider: WebhookProvider; endpointId: string; now: Date },
): Promise<DeliverableSecrets> {
  const { endpointId, provider } = input;
  const row = UUID.test(endpointId) ? await endpoints.find(endpointId.toLowerCase()) : undefined;
  // A malformed id, or one of another provider's endpoints, answers exactly like an unknown one.
  if (!row || row.integrationProvider !== provider) {
    throw deliveryFailure('not_found', 'endpoint_not_found', 'endpointId', 'No such webhook endpoint');
  }
  if (row.status === 'disabled') throw deliveryFailure('gone', 'endpoint_disabled', 'endpointId', 'This webhook endpoint is disabled');
  if (!row.privateKeyEnc || (provider === 'gwa' && !row.publicKey)) {
    throw deliveryFailure(
      'conflict',
      'credentials_required',
      'endpointId',
      'This webhook endpoint has no secret to verify deliveries with',
    );
  }
  if (row.organizationStatus !== 'active' || row.integrationEnvironment !== runtime.environment) {
    throw deliveryFailure('conflict', 'connection_unavailable', 'endpointId', "This webhook endpoint's integration cannot take events");
  }
  const plain = decryptedSecrets(row, runtime);
  const secrets: EndpointSecret[] = [{ publicKey: row.publicKey, secret: plain.current }];
  if (plain.previous !== undefined && row.previousValidUntil && row.previousValidUntil > input.now) {
    secrets.push({ publicKey: row.previousPublicKey, secret: plain.previous });
  }
  return {
    scope: { organizationId: row.organizationId, integrationId: row.integrationId, environment: row.environment },
    endpointId: row.id,
    secrets,
  };
}

/**
 * An endpoint's secrets decrypted once per row read, not once per delivery: a cached endpoint (`EndpointDirectory`)
 * is the same object until the epoch moves, and a row read again is a new object. In memory only, as the delivery
 * that decrypts them holds them; never stored.
 */
const decrypted = new WeakMap<DeliveryEndpoint, { cipher: WebhookRuntime['cipher']; current: string; previous: string | undefined }>();

function decryptedSecrets(row: DeliveryEndpoint, runtime: WebhookRuntime) {
  const known = decrypted.get(row);
  if (known && known.cipher === runtime.cipher) return known;
  const secrets = {
    cipher: runtime.cipher,
    current: runtime.cipher.decrypt(row.privateKeyEnc!, currentKeySlot(row.id)),
    previous: row.previousPrivateKeyEnc ? runtime.cipher.decrypt(row.previousPrivateKeyEnc, previousKeySlot(row.id)) : undefined,
  };
  decrypted.set(row, secrets);
  return secrets;
}
