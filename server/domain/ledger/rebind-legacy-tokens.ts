import type { EntityManager } from '@mikro-orm/postgresql';
import { isLegacyToken, type TokenCipher } from '../../crypto/token-cipher.js';
import { connectionsWithLegacyTokens, replaceTokensIfUnchanged } from '../../persistence/sql/ledger-connections.sql.js';
import { sqlOf } from '../../persistence/sql/sql.js';

/**
 * One-off start-up step: tokens stored before they were bound to their row (`v1.`,
 * no AAD) are re-encrypted bound to the connection id (`v2.`). Each row is written
 * only if its values are still the ones read, so a concurrent refresh or a second
 * process doing the same step wins cleanly. Returns how many rows were rebound.
 */
export async function rebindLegacyTokens(em: EntityManager, cipher: TokenCipher): Promise<number> {
  const sql = sqlOf(em);
  let rebound = 0;
  for (const r of await connectionsWithLegacyTokens(sql)) {
    const rebind = (stored: string) => (isLegacyToken(stored) ? cipher.encrypt(cipher.decrypt(stored, r.id), r.id) : stored);
    const was = { access: r.accessTokenEnc, refresh: r.refreshTokenEnc };
    if (await replaceTokensIfUnchanged(sql, r.id, was, { access: rebind(was.access), refresh: rebind(was.refresh) })) rebound += 1;
  }
  return rebound;
}
