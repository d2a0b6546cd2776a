import { poolUnitOfWork } from '../server/persistence/unit-of-work.js';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MikroORM } from '@mikro-orm/postgresql';
import { createAdminCaller } from '../admin/router.js';
import { ConfigSchema } from '../server/config.js';
import { apiKeyMac } from '../server/crypto/api-key-mac.js';
import { createTokenCipher } from '../server/crypto/token-cipher.js';
import { storeConsent } from '../server/domain/ledger/consent.js';
import { queueSync } from '../server/domain/ledger/queue-sync.js';
import { exchangeCode } from '../server/integrations/ledger/ledger-api.js';
import { createLedgerRuntime, type LedgerRuntime } from '../server/integrations/ledger/runtime.js';
import { createMailer } from '../server/integrations/mail/mailer.js';
import type { LedgerSandbox } from '../server/ledger-sandbox/sandbox.js';
import { awaitLine } from './support.js';

const SANDBOX_PROCESS = fileURLToPath(new URL('./ledger-sandbox-process.ts', import.meta.url));

type SandboxProcess = Pick<LedgerSandbox, 'urls' | 'clientId' | 'clientSecret' | 'close'>;

/**
 * A generated sandbox company in a process of its own (bench/ledger-sandbox-process.ts): in production the accounting
 * provider's answers cost the importer nothing but waiting, so the bench must not compute them on the importer's thread.
 */
async function startSandboxProcess(o: { invoices: number; items: number; lines: number; realmId: string }): Promise<SandboxProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', SANDBOX_PROCESS, JSON.stringify(o)], { stdio: ['pipe', 'pipe', 'inherit'] });
  const [line] = await awaitLine(child, /^\{.*\}\n/m, 'the ledger sandbox');
  const started = JSON.parse(line) as Pick<LedgerSandbox, 'urls' | 'clientId' | 'clientSecret'>;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    ...started,
    close: async () => {
      child.stdin!.end();
      await exited;
    },
  };
}

export interface QueuedImport {
  runId: string;
  runtime: LedgerRuntime;
  sandbox: SandboxProcess;
  organizationId: string;
  /** The ledger integration. */
  integrationId: string;
  realmId: string;
}

/**
 * A generated sandbox company (in its own process) connected through the sandbox's own
 * OAuth endpoints to a new organization's ledger integration, and one sync run queued
 * for it (its job is not sent: the caller runs `importRun` itself). Close `sandbox` after.
 */
export async function queuedImport(
  orm: MikroORM,
  databaseUrl: string,
  o: { invoices: number; items: number; lines: number; realmId: string; outboxDir: string },
): Promise<QueuedImport> {
  const sandbox = await startSandboxProcess({ invoices: o.invoices, items: o.items, lines: o.lines, realmId: o.realmId });
  const config = ConfigSchema.parse({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn', LEDGER_HISTORY_DAYS: '3650' });
  const cipher = createTokenCipher(randomBytes(32));
  const runtime = createLedgerRuntime({
    config,
    provider: {
      authorizeUrl: sandbox.urls.authorize,
      tokenUrl: sandbox.urls.token,
      apiBaseUrl: sandbox.urls.api,
      clientId: sandbox.clientId,
      clientSecret: sandbox.clientSecret,
    },
    cipher,
    mailer: createMailer({ smtpUrl: undefined, from: 'bench', outboxDir: path.join(o.outboxDir, 'outbox') }),
  });
  const auth = await fetch(
    `${sandbox.urls.authorize}?client_id=${sandbox.clientId}&response_type=code&scope=com.intuit.quickbooks.accounting` +
      `&redirect_uri=${encodeURIComponent(runtime.endpoints.redirectUrl)}&state=bench`,
    { redirect: 'manual' },
  );
  const code = new URL(auth.headers.get('location')!).searchParams.get('code')!;
  const tokens = await exchangeCode(runtime.endpoints, code);
  const admin = createAdminCaller({
    uow: poolUnitOfWork(orm),
    authorized: true,
    keyMac: apiKeyMac(randomBytes(32)),
  });
  const org = await admin.organizations.create({ name: `Bench ${o.realmId}` });
  const integration = await admin.integrations.create({ organizationId: org.id, provider: 'ledger', environment: 'sandbox' });
  await storeConsent(poolUnitOfWork(orm), cipher, {
    organizationId: org.id,
    integrationId: integration.id,
    environment: 'sandbox',
    realmId: o.realmId,
    tokens,
  });
  let runId = '';
  runtime.queue = {
    enqueue: async (id) => {
      runId = id;
    },
    jobState: async () => 'created',
    job: async () => ({ state: 'created', startedOn: null }),
    cancel: async () => undefined,
  };
  const ctx = {
    apiKeyId: 'bench',
    organizationId: org.id,
    integrationId: integration.id,
    provider: 'ledger' as const,
    environment: 'sandbox' as const,
    scopes: [],
  };
  await queueSync(poolUnitOfWork(orm), runtime, { ctx, realmId: o.realmId, fullReconciliation: false });
  return { runId, runtime, sandbox, organizationId: org.id, integrationId: integration.id, realmId: o.realmId };
}
