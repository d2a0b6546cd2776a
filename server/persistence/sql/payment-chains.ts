import type { Kysely } from 'kysely';
import type { ObservationEvidence } from '../../domain/payment-reports/types.js';
import type { Environment, Provider } from '../../../contract/common/index.js';
import type { Database, Db } from '../kysely.js';

/**
 * The views of Migration20261126073500_payment_chains: the one definition of which payment stands for itself and which
 * observations count for it (docs/evidence.md, "The chain of one preparation"). Views are not entities, so their
 * columns are addressed by their database names and read back as the driver gives them (timestamps and bigints as
 * text): these types say so, and each reader converts once.
 */
export type PaymentChainViews = {
  /** Every observation under the payment it counts for: its own, and the survivor of a merged payment. */
  payment_chain_observations: {
    id: string;
    chain_payment_id: string;
    event_id: string;
    status: string;
    currency: string;
    amount_minor: string;
    captured_amount_minor: string;
    refunded_amount_minor: string;
    occurred_at: string;
    received_at: string;
    payload: Record<string, unknown>;
    evidence: ObservationEvidence;
  };
  /** Payments not merged into another, with whether any observation of their chain is a provider-verified capture. */
  payment_chains: {
    id: string;
    organization_id: string;
    integration_id: string;
    environment: Environment;
    provider: Provider;
    attempt_id: string;
    attempt_provisional: boolean;
    provider_payment_id: string | null;
    account_id: string | null;
    charge_id: string | null;
    order_id: string | null;
    status: string | null;
    currency: string | null;
    amount_minor: string | null;
    captured_amount_minor: string | null;
    refunded_amount_minor: string | null;
    occurred_at: string | null;
    current_observation_id: string | null;
    enrichment_request_id: string | null;
    observation_count: number;
    created_at: string;
    updated_at: string;
    verified_capture: boolean;
  };
};

/** A database with the two views as tables (`withTables`: types only, the same connection or transaction). */
export function withChains(db: Database): Kysely<Db & PaymentChainViews> {
  return db.withTables<PaymentChainViews>();
}
