import { db, type Database } from '../db/query.js';

/**
 * The views of Migration20261126073500_payment_chains, which the generated table types do not cover (views are not
 * tables): the one definition of which payment stands for itself and which observations count for it
 * (docs/evidence.md, "The chain of one preparation").
 */
export type PaymentChainViews = {
  /** Every observation under the payment it counts for: its own, and the survivor of a merged payment. */
  payment_chain_observations: Database['payment_observations'] & { chain_payment_id: string };
  /** Payments not merged into another, with whether any observation of their chain is a provider-verified capture. */
  payment_chains: Database['tracked_payments'] & { verified_capture: boolean };
};

/** The query builder with the two views as tables. */
export const chainDb = db.withTables<PaymentChainViews>();
