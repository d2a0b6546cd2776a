import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261121160820_tenancy } from './Migration20261121160820_tenancy.js';
import { Migration20261121161241_payment_reports } from './Migration20261121161241_payment_reports.js';
import { Migration20261121164540_ledger } from './Migration20261121164540_ledger.js';
import { Migration20261123093839_ledger_reconcile } from './Migration20261123093839_ledger_reconcile.js';
import { Migration20261123094319_invitation_api_key } from './Migration20261123094319_invitation_api_key.js';
import { Migration20261123100529_tenant_scope_ledger } from './Migration20261123100529_tenant_scope_ledger.js';
import { Migration20261123102342_item_mappings } from './Migration20261123102342_item_mappings.js';
import { Migration20261123102522_webhooks } from './Migration20261123102522_webhooks.js';
import { Migration20261123102552_stored_invoices } from './Migration20261123102552_stored_invoices.js';
import { Migration20261123105205_preparations } from './Migration20261123105205_preparations.js';
import { Migration20261123134109_rate_limit_buckets } from './Migration20261123134109_rate_limit_buckets.js';
import { Migration20261123140000_auth_epoch } from './Migration20261123140000_auth_epoch.js';
import { Migration20261123161000_preparation_data_json } from './Migration20261123161000_preparation_data_json.js';
import { Migration20261125174500_provider_evidence } from './Migration20261125174500_provider_evidence.js';
import { Migration20261125180000_gwc_webhooks } from './Migration20261125180000_gwc_webhooks.js';
import { Migration20261125183000_redact_card_numbers } from './Migration20261125183000_redact_card_numbers.js';
import { Migration20261125190000_evidence_ledger } from './Migration20261125190000_evidence_ledger.js';
import { Migration20261125191500_preparation_evidence } from './Migration20261125191500_preparation_evidence.js';
import { Migration20261126073329_reference_lengths } from './Migration20261126073329_reference_lengths.js';
import { Migration20261126073500_payment_chains } from './Migration20261126073500_payment_chains.js';
import { Migration20261126083700_invoice_snapshot_required } from './Migration20261126083700_invoice_snapshot_required.js';
import { Migration20261126103157_qualification } from './Migration20261126103157_qualification.js';
import { Migration20261127000000_cross_invoice_facts } from './Migration20261127000000_cross_invoice_facts.js';
import { Migration20261127080000_webhook_endpoint_epoch } from './Migration20261127080000_webhook_endpoint_epoch.js';
import { Migration20261127120000_qualification_rules } from './Migration20261127120000_qualification_rules.js';
import { Migration20261127190000_enrichment_reference_index_order } from './Migration20261127190000_enrichment_reference_index_order.js';

/**
 * Every migration, in order. Listed statically (not discovered from disk) so the
 * same list loads under tsx, vitest and compiled output. Add new files here.
 */
export const migrationsList: MigrationObject[] = [
  { name: 'Migration20261121160820_tenancy', class: Migration20261121160820_tenancy },
  { name: 'Migration20261121161241_payment_reports', class: Migration20261121161241_payment_reports },
  { name: 'Migration20261121164540_ledger', class: Migration20261121164540_ledger },
  { name: 'Migration20261123093839_ledger_reconcile', class: Migration20261123093839_ledger_reconcile },
  { name: 'Migration20261123094319_invitation_api_key', class: Migration20261123094319_invitation_api_key },
  { name: 'Migration20261123100529_tenant_scope_ledger', class: Migration20261123100529_tenant_scope_ledger },
  { name: 'Migration20261123102342_item_mappings', class: Migration20261123102342_item_mappings },
  { name: 'Migration20261123102522_webhooks', class: Migration20261123102522_webhooks },
  { name: 'Migration20261123102552_stored_invoices', class: Migration20261123102552_stored_invoices },
  { name: 'Migration20261123105205_preparations', class: Migration20261123105205_preparations },
  { name: 'Migration20261123134109_rate_limit_buckets', class: Migration20261123134109_rate_limit_buckets },
  { name: 'Migration20261123140000_auth_epoch', class: Migration20261123140000_auth_epoch },
  { name: 'Migration20261123161000_preparation_data_json', class: Migration20261123161000_preparation_data_json },
  { name: 'Migration20261125174500_provider_evidence', class: Migration20261125174500_provider_evidence },
  { name: 'Migration20261125180000_gwc_webhooks', class: Migration20261125180000_gwc_webhooks },
  { name: 'Migration20261125183000_redact_card_numbers', class: Migration20261125183000_redact_card_numbers },
  { name: 'Migration20261125190000_evidence_ledger', class: Migration20261125190000_evidence_ledger },
  { name: 'Migration20261125191500_preparation_evidence', class: Migration20261125191500_preparation_evidence },
  { name: 'Migration20261126073329_reference_lengths', class: Migration20261126073329_reference_lengths },
  { name: 'Migration20261126073500_payment_chains', class: Migration20261126073500_payment_chains },
  { name: 'Migration20261126083700_invoice_snapshot_required', class: Migration20261126083700_invoice_snapshot_required },
  { name: 'Migration20261126103157_qualification', class: Migration20261126103157_qualification },
  { name: 'Migration20261127000000_cross_invoice_facts', class: Migration20261127000000_cross_invoice_facts },
  { name: 'Migration20261127080000_webhook_endpoint_epoch', class: Migration20261127080000_webhook_endpoint_epoch },
  { name: 'Migration20261127120000_qualification_rules', class: Migration20261127120000_qualification_rules },
  { name: 'Migration20261127190000_enrichment_reference_index_order', class: Migration20261127190000_enrichment_reference_index_order },
];
