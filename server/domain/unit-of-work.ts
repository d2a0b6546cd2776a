/**
 * The domain's one way to storage (docs/decisions.md, "Persistence: the domain owns its ports"). `S` is what a use
 * case needs, named per area (`{ tenancy: TenancyStore }`, `{ ledger: LedgerStore; invoices: InvoiceStore }`);
 * server/persistence/unit-of-work.ts implements it for every area at once, so one transaction can span areas.
 */
export interface UnitOfWork<S> {
  /** The stores outside any transaction: each statement commits on its own. */
  readonly store: S;
  /**
   * `work`'s statements in one transaction: committed when it resolves, rolled back when it throws. Called inside
   * another transaction's `work`, it is a savepoint of that transaction.
   */
  transaction<T>(work: (store: S) => Promise<T>): Promise<T>;
}
