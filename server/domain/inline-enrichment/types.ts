import type { Environment, PaymentProvider } from '../../../contract/common/index.js';

/** What a successful inline enrichment leaves for a later payment report to name (table `enrichment_records`). */
export interface EnrichmentRecordInsert {
  requestId: string;
  organizationId: string;
  integrationId: string;
  environment: Environment;
  provider: PaymentProvider;
  amountMinor: number;
  currency: string;
  invoiceNumber: string;
  createdAt: Date;
}
