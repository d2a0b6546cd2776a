/**
 * The domain's one way to storage (docs/decisions.md, "Persistence: the domain owns its ports"). `S` is what a use
 * case needs, named per area (`{ tenancy: TenancyStore }`, `{ ledger: LedgerStore; invoices: InvoiceStore }`);
 * server/persistence/unit-of-work.ts implements it for every area at once, so one transaction can span areas.
 */
export interface UnitOfWork<S> {
  /** The stores outside any transaction: each statement commits on its own. */
  readonly store: S;
  /**
   * `work`'s statements in one transaction: committed when it resolves, rolled back when it throws. `tx` is the unit of
   * work of that transaction: its `store` is `store`, and its `transaction` is a savepoint, for a use case that must
   * isolate a step (a unique violation it meets leaves the outer transaction usable).
   */
  transaction<T>(work: (store: S, tx: UnitOfWork<S>) => Promise<T>): Promise<T>;
}
