import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Config } from './config.js';

export const ADMIN_TOKEN_FILE = 'admin-token';

/**
 * The operator token: `SVC_ADMIN_TOKEN`, or one generated on first start and
 * kept in `<SVC_DATA_DIR>/admin-token` (mode 0600). Only the file's path is
 * ever printed, never the token.
 */
export function resolveAdminToken(config: Pick<Config, 'SVC_ADMIN_TOKEN' | 'SVC_DATA_DIR'>): {
  token: string;
  file?: string;
  created: boolean;
} {
  if (config.SVC_ADMIN_TOKEN) return { token: config.SVC_ADMIN_TOKEN, created: false };
  const file = path.resolve(config.SVC_DATA_DIR, ADMIN_TOKEN_FILE);
  if (existsSync(file)) return { token: readFileSync(file, 'utf8').trim(), file, created: false };
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const token = randomBytes(32).toString('base64url');
  writeFileSync(file, `${token}\n`, { mode: 0o600, flag: 'wx' });
  return { token, file, created: true };
}
