import { isLegacyToken, type TokenCipher } from '../../crypto/token-cipher.js';
import type { UnitOfWork } from '../unit-of-work.js';
import type { LedgerStore } from './ports.js';

/**
 * One-off start-up step: tokens stored before they were bound to their row (`v1.`,
 * no AAD) are re-encrypted bound to the connection id (`v2.`). Each row is written
 * only if its values are still the ones read, so a concurrent refresh or a second
 * process doing the same step wins cleanly. Returns how many rows were rebound.
 */
export async function rebindLegacyTokens(storage: UnitOfWork<{ ledger: LedgerStore }>, cipher: TokenCipher): Promise<number> {
  const { ledger } = storage.store;
  let rebound = 0;
  for (const r of await ledger.connectionsWithLegacyTokens()) {
    const rebind = (stored: string) => (isLegacyToken(stored) ? cipher.encrypt(cipher.decrypt(stored, r.id), r.id) : stored);
    const was = { access: r.accessTokenEnc, refresh: r.refreshTokenEnc };
    if (await ledger.replaceTokensIfUnchanged(r.id, was, { access: rebind(was.access), refresh: rebind(was.refresh) })) rebound += 1;
  }
  return rebound;
}
