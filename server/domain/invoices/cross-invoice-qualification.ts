import type { LedgerConnection } from '../ledger/types.js';
import { crossInvoiceRisks, type RiskFinding } from '../qualification/index.js';
import type { CrossInvoiceRiskStore } from '../qualification/ports.js';

/**
 * Months of invoices the cross-invoice placeholder rules look over: long enough to show a pattern (three monthly
 * billing cycles), short enough that an old default no longer used does not flag today's invoices
 * (docs/decisions.md, "Qualification: stored with the snapshot; cross-invoice risks over 3 months").
 */
export const CROSS_INVOICE_WINDOW_MONTHS = 3;

/** The start of the window ending `now`: the same day and time `CROSS_INVOICE_WINDOW_MONTHS` calendar months before (UTC). */
export function crossInvoiceWindowStart(now: Date): Date {
  const start = new Date(now);
  start.setUTCMonth(start.getUTCMonth() - CROSS_INVOICE_WINDOW_MONTHS);
  return start;
}

/**
 * Recompute the cross-invoice findings of a connection's window (`crossInvoiceRisks`) and store each invoice's, in the
 * caller's transaction; invoices out of the window keep none. Runs after an import run and after an item mapping
 * change, the writes that change the window's set or content. Never changes an output.
 */
export async function refreshCrossInvoiceRisks(
  store: CrossInvoiceRiskStore,
  o: { connection: LedgerConnection; now: Date },
): Promise<number> {
  const window = await store.window(o.connection.id, crossInvoiceWindowStart(o.now));
  // Cross-invoice rules read the stored lines and their items only, not the source record's line positions.
  const findings = crossInvoiceRisks(window);
  const byInvoice = new Map<string, RiskFinding[]>();
  for (const f of findings) {
    if (f.ledgerInvoiceId === null) continue;
    const list = byInvoice.get(f.ledgerInvoiceId);
    if (list) list.push(f);
    else byInvoice.set(f.ledgerInvoiceId, [f]);
  }
  return store.write(o.connection.id, byInvoice);
}
