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

/** A seeded random source for the sandbox's strict tie order, so a failing case reproduces from its seed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
