/**
 * `npm run ledger:sandbox -- --port 4010 --fixtures <file> [--client-id id --client-secret s] [--auto-approve] [--strict]`:
 * the ledger sandbox alone. Without --fixtures it serves the demo company. `--strict` turns on the strict
 * protocol checks (tied rows reshuffled per request, documented time form, no replayed refresh tokens).
 */
import { parseArgs } from 'node:util';
import { loadCompanyFile } from './company.js';
import { demoCompany } from './demo-company.js';
import { startLedgerSandbox } from './sandbox.js';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '4010' },
    host: { type: 'string', default: '127.0.0.1' },
    fixtures: { type: 'string' },
    'client-id': { type: 'string' },
    'client-secret': { type: 'string' },
    'auto-approve': { type: 'boolean', default: false },
    strict: { type: 'boolean', default: false },
    'access-token-ttl': { type: 'string' },
  },
});
const company = values.fixtures ? loadCompanyFile(values.fixtures) : demoCompany();
const sandbox = await startLedgerSandbox(
  {
    companies: [company],
    clientId: values['client-id'] ?? 'sandbox-client',
    clientSecret: values['client-secret'] ?? 'sandbox-secret',
    autoApprove: values['auto-approve'],
    strict: values.strict,
    ...(values['access-token-ttl'] ? { accessTokenTtlSeconds: Number(values['access-token-ttl']) } : {}),
  },
  Number(values.port),
  values.host,
);
process.stdout.write(
  `ledger sandbox on ${sandbox.url} (company ${company.realmId} "${company.companyName}": ${company.Invoice.length} invoices, ${company.Item.length} items; client id ${sandbox.clientId})\n`,
);
const stop = () => void sandbox.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
