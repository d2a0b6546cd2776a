import type { ConnectionStatus, Environment } from '../../../contract/common/index.js';
import type { UnitOfWork } from '../unit-of-work.js';
import { LedgerHttpError } from './provider-errors.js';
import type { TokenCipher } from '../../crypto/token-cipher.js';
import { hashSecret, newSecret } from '../../crypto/secrets.js';
import { checkInvitation, CONSENT_STATE_TTL_MS, type ConsentCheck } from './invitation-rules.js';
import type { LedgerPorts, LedgerStore, TokenSet } from './ports.js';

type Stores = { ledger: LedgerStore };
type Storage = UnitOfWork<Stores>;

export type ConsentFailure = Exclude<ConsentCheck, 'ok'> | 'denied' | 'exchange_failed' | 'invalid' | 'realm_mismatch';

/**
 * Opening the connect URL: a valid invitation gets a fresh OAuth `state` (only
 * its hash stored, bound to this invitation, short-lived) and the recipient is
 * sent to the provider's authorization URL.
 */
export async function openConnectUrl(
  storage: Storage,
  runtime: LedgerPorts,
  secret: string,
): Promise<{ redirect: string } | { failure: ConsentFailure }> {
  const now = new Date();
  const { ledger } = storage.store;
  const invitation = /^[A-Za-z0-9_-]{43}$/.test(secret) ? await ledger.invitationBySecret(hashSecret(secret)) : undefined;
  const check = checkInvitation(invitation, now);
  if (check !== 'ok') return { failure: check };
  const state = newSecret();
  await ledger.setInvitationState(invitation!.id, hashSecret(state), new Date(now.getTime() + CONSENT_STATE_TTL_MS));
  return { redirect: runtime.client.authorizationUrl(state) };
}

/**
 * Store a consent's tokens on the connection of this integration and realm (created
 * if new), encrypted bound to the connection's id, in one transaction. The status
 * becomes active unless the operator paused or disconnected the connection.
 */
export async function storeConsent(
  storage: Storage,
  cipher: TokenCipher,
  c: {
    organizationId: string;
    integrationId: string;
    environment: Environment;
    realmId: string;
    tokens: TokenSet;
    /** Runs in the consent's transaction, once the tokens are stored. */
    onStored?: (store: Stores) => Promise<unknown>;
  },
): Promise<{ id: string; status: ConnectionStatus }> {
  return storage.transaction(async (store) => {
    const { ledger } = store;
    const now = new Date();
    const { id } = await ledger.claimConnection({
      organizationId: c.organizationId,
      integrationId: c.integrationId,
      environment: c.environment,
      realmId: c.realmId,
      now,
    });
    const status = await ledger.storeConsentTokens(id, {
      accessEnc: cipher.encrypt(c.tokens.accessToken, id),
      refreshEnc: cipher.encrypt(c.tokens.refreshToken, id),
      accessExpiresAt: c.tokens.accessTokenExpiresAt,
      refreshExpiresAt: c.tokens.refreshTokenExpiresAt,
      now,
    });
    await c.onStored?.(store);
    return { id, status };
  });
}

/**
 * The provider's redirect back: the `state` must belong to a sent, unexpired,
 * unconsumed invitation. The invitation is consumed first (one winner), then the
 * code is exchanged and the realm confirmed with the provider outside any
 * transaction: the callback's `realmId` is only a URL parameter, so a CompanyInfo
 * read for that realm with the new token must succeed before anything is stored
 * (otherwise a link holder could approve one company and write its tokens over
 * another connection). A paused or disconnected connection keeps its status.
 */
export async function completeConsent(
  storage: Storage,
  runtime: LedgerPorts,
  q: { state?: string; code?: string; realmId?: string; error?: string },
): Promise<{ realmId: string; status: ConnectionStatus } | { failure: ConsentFailure }> {
  const now = new Date();
  const { ledger } = storage.store;
  if (!q.state || !/^[A-Za-z0-9_-]{43}$/.test(q.state)) return { failure: 'unknown' };
  const stateHash = hashSecret(q.state);
  const invitation = await ledger.invitationByState(stateHash);
  const check = checkInvitation(invitation, now, invitation?.stateExpiresAt ?? null);
  if (check !== 'ok') return { failure: check };
  if (q.error) return { failure: 'denied' };
  if (!q.code || !q.realmId || !/^[A-Za-z0-9_-]{1,64}$/.test(q.realmId)) return { failure: 'invalid' };
  if (!(await ledger.consumeInvitation(invitation!.id, stateHash, now))) return { failure: 'used' };
  let tokens: TokenSet;
  try {
    tokens = await runtime.client.exchangeCode(q.code);
  } catch {
    return { failure: 'exchange_failed' };
  }
  try {
    await runtime.client.companyInfo({ realmId: q.realmId, accessToken: tokens.accessToken });
  } catch (err) {
    // The tokens are not kept either way; give the unused grant back (best effort).
    await runtime.client.revokeToken(tokens.refreshToken).catch(() => undefined);
    const refused = err instanceof LedgerHttpError && (err.status === 401 || err.status === 403);
    return { failure: refused ? 'realm_mismatch' : 'exchange_failed' };
  }
  const stored = await storeConsent(storage, runtime.cipher, {
    organizationId: invitation!.organizationId,
    integrationId: invitation!.integrationId,
    environment: invitation!.environment,
    realmId: q.realmId,
    tokens,
    onStored: (store) => store.ledger.recordInvitationRealm(invitation!.id, q.realmId!),
  });
  return { realmId: q.realmId, status: stored.status };
}
