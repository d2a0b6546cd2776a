/**
 * The version of the qualification rules (docs/network-qualification.md, "How it is stored"). Raise it with any change
 * that computes another qualification from the same mapped invoice: every stored invoice whose qualification an
 * earlier version computed is then qualified again at its connection's next sync, without a new snapshot.
 * 1: the first rules; 2: line discounts, `not_mapped`, gwc's customer reference, product codes across invoices.
 */
export const QUALIFICATION_RULES = 2;
