/**
 * A generated ledger sandbox company served from a process of its own (`startSandboxProcess`, bench/ledger-support.ts):
 * the accounting provider is another party, so the importer under measure must not spend its own thread answering its
 * queries. Argument: the company as JSON `{ invoices, items, lines, realmId }`. Prints one JSON line with the sandbox's
 * URLs and client credentials once it listens; stops when its stdin closes (the bench ended, or died).
 */
import { generateCompany } from '../server/ledger-sandbox/demo-company.js';
import { startLedgerSandbox } from '../server/ledger-sandbox/sandbox.js';

const o = JSON.parse(process.argv[2] ?? '{}') as { invoices: number; items: number; lines: number; realmId: string };
const sandbox = await startLedgerSandbox({
  companies: [generateCompany({ invoices: o.invoices, items: o.items, linesPerInvoice: o.lines, realmId: o.realmId })],
  autoApprove: true,
  rateLimitPerMinute: 100_000,
});
process.stdout.write(`${JSON.stringify({ urls: sandbox.urls, clientId: sandbox.clientId, clientSecret: sandbox.clientSecret })}\n`);
process.stdin.resume();
process.stdin.on('end', () => void sandbox.close().then(() => process.exit(0)));
