import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { ledgerSettings, type Config } from '../config.js';
import { createMailer } from '../integrations/mail/mailer.js';
import { createLedgerRuntime, type LedgerRuntime } from '../integrations/ledger/runtime.js';
import { createTokenCipher, resolveTokenKey } from '../crypto/token-cipher.js';
import { demoCompany } from '../ledger-sandbox/demo-company.js';
import { startLedgerSandbox, type LedgerSandbox } from '../ledger-sandbox/sandbox.js';

/**
 * The embedded default's ledger sandbox (one process, or a cluster's primary):
 * the demo company on loopback, its credentials, companies and issued tokens
 * kept in `<SVC_DATA_DIR>/ledger-sandbox.json` so that a restart keeps its connections.
 */
export function startEmbeddedSandbox(config: Config): Promise<LedgerSandbox> {
  mkdirSync(config.SVC_DATA_DIR, { recursive: true });
  const stateFile = path.resolve(config.SVC_DATA_DIR, 'ledger-sandbox.json');
  return startLedgerSandbox({ companies: [demoCompany()], stateFile }, ledgerSettings(config).sandboxPort, '127.0.0.1');
}

/**
 * The ledger runtime from configuration: the domain's ledger ports (the provider's client, the mailer) wired for
 * this deployment. With no provider configured (the embedded default) the ledger sandbox starts in-process with the
 * demo company and its own generated client credentials (startEmbeddedSandbox).
 */
export async function buildLedgerRuntime(
  config: Config,
): Promise<{ runtime: LedgerRuntime; sandbox?: LedgerSandbox; close(): Promise<void> }> {
  const settings = ledgerSettings(config);
  let sandbox: LedgerSandbox | undefined;
  let provider: Parameters<typeof createLedgerRuntime>[0]['provider'];
  if (settings.embeddedSandbox) {
    sandbox = await startEmbeddedSandbox(config);
    provider = {
      authorizeUrl: sandbox.urls.authorize,
      tokenUrl: sandbox.urls.token,
      apiBaseUrl: sandbox.urls.api,
      clientId: sandbox.clientId,
      clientSecret: sandbox.clientSecret,
    };
  } else {
    provider = {
      authorizeUrl: config.LEDGER_AUTH_URL!,
      tokenUrl: config.LEDGER_TOKEN_URL!,
      ...(config.LEDGER_REVOKE_URL ? { revokeUrl: config.LEDGER_REVOKE_URL } : {}),
      apiBaseUrl: config.LEDGER_BASE_URL!,
      clientId: config.LEDGER_CLIENT_ID!,
      clientSecret: config.LEDGER_CLIENT_SECRET!,
    };
  }
  const mailer = createMailer({
    smtpUrl: config.SMTP_URL,
    from: settings.smtpFrom,
    outboxDir: path.resolve(config.SVC_DATA_DIR, 'outbox'),
  });
  const cipher = createTokenCipher(resolveTokenKey(config.SVC_TOKEN_KEY, config.SVC_DATA_DIR));
  const runtime = createLedgerRuntime({ config, provider, cipher, mailer });
  return {
    runtime,
    ...(sandbox ? { sandbox } : {}),
    close: async () => {
      mailer.close();
      await sandbox?.close();
    },
  };
}
