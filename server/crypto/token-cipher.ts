import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmodSync, closeSync, linkSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';

/**
 * AES-256-GCM for provider tokens at rest (base64url parts). Stored forms:
 * - `v2.<iv>.<tag>.<ciphertext>`: bound to its row — the connection id is the GCM
 *   additional authenticated data, so a value copied into another row does not decrypt;
 * - `v1.<iv>.<tag>.<ciphertext>`: written before that binding existed (no AAD). Still
 *   decrypts; `rebindLegacyTokens` re-encrypts such rows as v2 at start-up (docs/decisions.md).
 * The key comes from SVC_TOKEN_KEY, or in the embedded default from
 * `<SVC_DATA_DIR>/token-key` (generated once, mode 0600). It is never logged.
 */
export interface TokenCipher {
  /** Encrypt bound to `boundTo` (the connection id of the row the value is written to). */
  encrypt(plain: string, boundTo: string): string;
  /** Decrypt a value read from the row `boundTo`; a v2 value from any other row fails. */
  decrypt(stored: string, boundTo: string): string;
}

/** True when the stored value predates row binding (v1, no AAD). */
export const isLegacyToken = (stored: string) => stored.startsWith('v1.');

export function createTokenCipher(key: Buffer): TokenCipher {
  if (key.length !== 32) throw new Error('token key must be 32 bytes');
  return {
    encrypt(plain, boundTo) {
      if (!boundTo) throw new Error('an encrypted token must be bound to its connection id');
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(boundTo, 'utf8'));
      const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return ['v2', iv, cipher.getAuthTag(), data].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.');
    },
    decrypt(stored, boundTo) {
      const [version, iv, tag, data] = stored.split('.');
      if ((version !== 'v1' && version !== 'v2') || !iv || !tag || data === undefined)
        throw new Error('unrecognized encrypted token format');
      // A fixed 16-byte tag: GCM would otherwise accept a truncated tag, weakening authentication.
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'), { authTagLength: 16 });
      if (version === 'v2') decipher.setAAD(Buffer.from(boundTo, 'utf8'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
    },
  };
}

const readKey = (file: string) => Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');

/**
 * The configured key, or the embedded default's generated one under the data dir.
 * The file is created atomically: the key is written to a private temp file, then
 * hard-linked to its final name, which fails if another process got there first —
 * the loser reads the winner's key, so two processes starting together share one key.
 */
export function resolveTokenKey(configured: string | undefined, dataDir: string): Buffer {
  if (configured) return Buffer.from(configured, 'base64');
  const file = path.resolve(dataDir, 'token-key');
  try {
    return readKey(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  mkdirSync(path.dirname(file), { recursive: true });
  const key = randomBytes(32);
  const temp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  const fd = openSync(temp, 'wx', 0o600);
  try {
    writeSync(fd, `${key.toString('base64')}\n`);
  } finally {
    closeSync(fd);
  }
  chmodSync(temp, 0o600);
  try {
    linkSync(temp, file);
    return key;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    return readKey(file);
  } finally {
    unlinkSync(temp);
  }
}
