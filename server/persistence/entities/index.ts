import { ApiKey } from './api-key.entity.js';
import { CorrelationException } from './correlation-exception.entity.js';
import { EnrichmentRecord } from './enrichment-record.entity.js';
import { IntegrationLink } from './integration-link.entity.js';
import { Integration } from './integration.entity.js';
import { Organization } from './organization.entity.js';
import { PaymentObservation } from './payment-observation.entity.js';
import { TrackedPayment } from './tracked-payment.entity.js';

export { ApiKey, CorrelationException, EnrichmentRecord, Integration, IntegrationLink, Organization, PaymentObservation, TrackedPayment };
export { ENVIRONMENTS, PROVIDERS, type Environment, type Provider } from './integration.entity.js';

/** Every entity the ORM manages; the migrations must produce exactly their schema. */
export const entities = [Organization, Integration, IntegrationLink, ApiKey, EnrichmentRecord, TrackedPayment, PaymentObservation, CorrelationException];
