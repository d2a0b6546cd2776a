import { ApiKey } from './api-key.entity.js';
import { AuthEpoch } from './auth-epoch.entity.js';
import { CorrelationException } from './correlation-exception.entity.js';
import { EnrichmentRecord } from './enrichment-record.entity.js';
import { IntegrationLink } from './integration-link.entity.js';
import { LedgerConnection } from './ledger-connection.entity.js';
import { LedgerInvitation } from './ledger-invitation.entity.js';
import { LedgerSourceRecord } from './ledger-source-record.entity.js';
import { LedgerSyncRun } from './ledger-sync-run.entity.js';
import { Integration } from './integration.entity.js';
import { InvoiceSnapshot } from './invoice-snapshot.entity.js';
import { ItemMapping } from './item-mapping.entity.js';
import { StoredInvoice } from './stored-invoice.entity.js';
import { Organization } from './organization.entity.js';
import { Preparation } from './preparation.entity.js';
import { PreparationEvidence } from './preparation-evidence.entity.js';
import { PaymentObservation } from './payment-observation.entity.js';
import { RateLimitBucket } from './rate-limit-bucket.entity.js';
import { TrackedPayment } from './tracked-payment.entity.js';
import { WebhookEndpoint } from './webhook-endpoint.entity.js';
import { WebhookEvent } from './webhook-event.entity.js';

export {
  InvoiceSnapshot,
  ItemMapping,
  Preparation,
  PreparationEvidence,
  RateLimitBucket,
  StoredInvoice,
  LedgerConnection,
  LedgerInvitation,
  LedgerSourceRecord,
  LedgerSyncRun,
  WebhookEndpoint,
  WebhookEvent,
};
export { ApiKey, CorrelationException, EnrichmentRecord, Integration, IntegrationLink, Organization, PaymentObservation, TrackedPayment };
export { ENVIRONMENTS, PROVIDERS, type Environment, type Provider } from './integration.entity.js';

/** Every entity the ORM manages; the migrations must produce exactly their schema. */
export const entities = [
  AuthEpoch,
  Organization,
  Integration,
  IntegrationLink,
  ApiKey,
  EnrichmentRecord,
  TrackedPayment,
  PaymentObservation,
  CorrelationException,
  LedgerInvitation,
  LedgerConnection,
  LedgerSyncRun,
  LedgerSourceRecord,
  ItemMapping,
  StoredInvoice,
  InvoiceSnapshot,
  Preparation,
  PreparationEvidence,
  WebhookEndpoint,
  WebhookEvent,
  RateLimitBucket,
];
