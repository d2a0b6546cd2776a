import { afterAll, beforeAll } from 'vitest';
import { generateCompany } from '../../server/ledger-sandbox/demo-company.js';
import { startLedgerSandbox, type LedgerSandbox, type SandboxOptions } from '../../server/ledger-sandbox/sandbox.js';

/** A ledger sandbox for one test file (small generated company, auto-approve on). */
export function useLedgerSandbox(options: Partial<SandboxOptions> & { invoices?: number; items?: number } = {}): LedgerSandbox {
  const holder = {} as LedgerSandbox;
  beforeAll(async () => {
    const company = generateCompany({ invoices: options.invoices ?? 25, items: options.items ?? 6, linesPerInvoice: 2 });
    const sandbox = await startLedgerSandbox({ companies: [company], autoApprove: true, ...options });
    Object.setPrototypeOf(holder, sandbox);
    Object.assign(holder, sandbox);
  });
  afterAll(async () => {
    await holder.close?.();
  });
  return holder;
}
