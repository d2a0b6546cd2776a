import type { EntityManager } from '@mikro-orm/postgresql';
import { isLegacyToken, type TokenCipher } from '../../crypto/token-cipher.js';
import { sqlOf } from '../../persistence/sql/sql.js';

/**
 * One-off start-up step: tokens stored before they were bound to their row (`v1.`,
 * no AAD) are re-encrypted bound to the connection id (`v2.`). Each row is written
 * only if its values are still the ones read, so a concurrent refresh or a second
 * process doing the same step wins cleanly. Returns how many rows were rebound.
 */
export async function rebindLegacyTokens(em: EntityManager, cipher: TokenCipher): Promise<number> {
  const sql = sqlOf(em);
  const rows = await sql<{ id: string; access_token_enc: string; refresh_token_enc: string }>(
    `select id, access_token_enc, refresh_token_enc from ledger_connections where access_token_enc like 'v1.%' or refresh_token_enc like 'v1.%'`,
  );
  let rebound = 0;
  for (const r of rows) {
    const rebind = (stored: string) => (isLegacyToken(stored) ? cipher.encrypt(cipher.decrypt(stored, r.id), r.id) : stored);
    const updated = await sql<{ id: string }>(
      `update ledger_connections set access_token_enc = ?, refresh_token_enc = ? where id = ? and access_token_enc = ? and refresh_token_enc = ? returning id`,
      [rebind(r.access_token_enc), rebind(r.refresh_token_enc), r.id, r.access_token_enc, r.refresh_token_enc],
    );
    rebound += updated.length;
  }
  return rebound;
}
