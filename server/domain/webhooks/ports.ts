import type { Position } from '../pagination.js';
import type { TenantScope } from '../tenant-scope.js';
import type {
  AtOnceWrite,
  DeliveryEndpoint,
  DeliveryStatus,
  EndpointIntegration,
  EndpointStatus,
  EventInsert,
  LinkedPayment,
  UnconfirmedPreparation,
  WebhookEndpoint,
  WebhookEvent,
} from './types.js';

/** What the webhook use cases need from storage; server/persistence/stores/webhooks-store.ts implements it. */
export interface WebhookStore {
  /**
   * The endpoint a delivery names, with its organization's status and its integration's provider and environment,
   * and the auth epoch read in the same statement: the endpoint is current while the epoch has not moved.
   */
  findEndpointForDelivery(id: string): Promise<{ epoch: string; endpoint: DeliveryEndpoint | undefined }>;
  /**
   * Claim a delivery's identity: its row is inserted unless one of the endpoint's unique keys is taken (a concurrent
   * claimer waits on the unique index until the first commits). Whether this call inserted and, when it did, the
   * tracked payment `providerPaymentId` is linked to in this integration and environment.
   */
  claimEvent(
    scope: TenantScope,
    event: EventInsert,
    providerPaymentId: string | null,
  ): Promise<{ claimed: boolean; linked: LinkedPayment | undefined }>;
  /**
   * A delivery recorded in one statement that commits on its own, when the provider payment id is linked to no tracked
   * payment and the first report's eventId names no observation: its row claimed with its outcome (`status`, and the
   * first report's observation and payment), and the first report's payment and observation stored with it.
   * `duplicate` when one of the endpoint's unique keys of the delivery is taken; `general`, with nothing written, when
   * a payment or an observation is already there. A unique violation of the payment or the observation (a concurrent
   * report) stores nothing and is `KeyTaken`.
   */
  recordDeliveryAtOnce: AtOnceWrite;
  /** The recorded status of the delivery that holds either unique key of this identity. */
  findEventStatus(identity: {
    endpointId: string;
    kind: string;
    notificationAt: Date;
    subjectId: string;
    providerEventId: string | null;
  }): Promise<string | undefined>;
  /** The delivery's outcome; the tracked payment its observation counts for is stored with it. */
  setEventOutcome(id: string, outcome: { status: string; observationId: string | null; issues: unknown[] | null }): Promise<void>;
  /** Keep the endpoint's last refused delivery and why (a safe message, never signature or secret material). */
  noteRefusal(endpointId: string, refusal: { code: string; message: string; at: Date }): Promise<void>;

  integrationForEndpoint(integrationId: string): Promise<EndpointIntegration | undefined>;
  insertEndpoint(endpoint: Omit<WebhookEndpoint, 'provider'>): Promise<void>;
  endpointById(id: string): Promise<WebhookEndpoint | undefined>;
  /** The endpoint, its row locked until the transaction ends. */
  lockEndpoint(id: string): Promise<WebhookEndpoint | undefined>;
  /** Endpoints oldest first, of one integration or of all, at most `limit`. */
  listEndpoints(input: { integrationId?: string | undefined; limit: number }): Promise<WebhookEndpoint[]>;
  /** Every endpoint of these integrations, oldest first. */
  endpointsOfIntegrations(integrationIds: readonly string[]): Promise<WebhookEndpoint[]>;
  setEndpointStatus(id: string, change: { status: EndpointStatus; disabledAt: Date | null }): Promise<void>;
  /** The endpoint's current secret, and the previous one when a rotation keeps it for its grace period. */
  setEndpointCredentials(
    id: string,
    credentials: {
      publicKey: string | null;
      privateKeyEnc: string;
      credentialsUpdatedAt: Date;
      previous?: { publicKey: string | null; privateKeyEnc: string; validUntil: Date };
    },
  ): Promise<void>;
  /** The delivery status of each endpoint (a fixed number of statements whatever the number of endpoints). */
  deliveryStatusOf(endpointIds: readonly string[]): Promise<Map<string, DeliveryStatus>>;
  /** Recorded deliveries in (createdAt, id) order after `after`, at most `limit`. */
  listWebhookEvents(input: {
    endpointId?: string | undefined;
    kind?: string | undefined;
    after?: Position | undefined;
    limit: number;
  }): Promise<WebhookEvent[]>;
  /** What lacks a provider-verified capture, created before `createdBefore`, oldest first, at most `limit`. */
  unconfirmedGwcPreparations(input: {
    integrationId?: string | undefined;
    createdBefore: Date;
    limit: number;
    factKeys: number[];
  }): Promise<UnconfirmedPreparation[]>;
}
