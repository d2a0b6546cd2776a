import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { SandboxCompany } from './company.js';
import type { SandboxTokenState } from './oauth-state.js';

/**
 * What a sandbox keeps across restarts when given a state file (the embedded
 * default: `<SVC_DATA_DIR>/ledger-sandbox.json`): its client credentials, its
 * companies and the codes and tokens it issued. The real provider remembers
 * the grants it issued, so a restart of the service must not end a connection.
 */
export interface SandboxState {
  version: 1;
  clientId: string;
  clientSecret: string;
  companies: SandboxCompany[];
  tokens: SandboxTokenState;
}

/** The saved state, or undefined when there is no file yet; an unreadable file stops the start, naming it. */
export function readSandboxState(file: string): SandboxState | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  let state: Partial<SandboxState> | undefined;
  try {
    state = JSON.parse(text) as Partial<SandboxState>;
  } catch {
    state = undefined;
  }
  if (!state || state.version !== 1 || !state.clientId || !state.clientSecret || !Array.isArray(state.companies) || !state.tokens) {
    throw new Error(
      `${file} is not a ledger sandbox state (remove it to start the sandbox afresh; its connections must then be invited again)`,
    );
  }
  return state as SandboxState;
}

/** Write the whole state to a temporary file and rename it over the old one: a crash leaves the old or the new state, never half. */
export function writeSandboxState(file: string, state: SandboxState): void {
  const temp = `${file}.${process.pid}.tmp`;
  // Mode 0600: it holds the sandbox's client secret and the tokens it issued.
  writeFileSync(temp, JSON.stringify(state), { mode: 0o600 });
  renameSync(temp, file);
}
