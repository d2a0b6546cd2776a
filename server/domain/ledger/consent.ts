import type { EntityManager } from '@mikro-orm/postgresql';
import { consumeInvitation, invitationBySecret, invitationByState, recordInvitationRealm, setInvitationState } from '../../persistence/sql/ledger-invitations.sql.js';
import { upsertConnection } from '../../persistence/sql/ledger-connections.sql.js';
import { sqlOf } from '../../persistence/sql/sql.js';
import { authorizationUrl, exchangeCode } from '../../integrations/ledger/ledger-api.js';
import { hashSecret, newSecret } from '../../crypto/secrets.js';
import { checkInvitation, CONSENT_STATE_TTL_MS, type ConsentCheck } from './invitation-rules.js';
import type { LedgerRuntime } from '../../integrations/ledger/runtime.js';

export type ConsentFailure = Exclude<ConsentCheck, 'ok'> | 'denied' | 'exchange_failed' | 'invalid';

/**
 * Opening the connect URL: a valid invitation gets a fresh OAuth `state` (only
 * its hash stored, bound to this invitation, short-lived) and the recipient is
 * sent to the provider's authorization URL.
 */
export async function openConnectUrl(em: EntityManager, runtime: LedgerRuntime, secret: string): Promise<{ redirect: string } | { failure: ConsentFailure }> {
  const now = new Date();
  const sql = sqlOf(em);
  const invitation = /^[A-Za-z0-9_-]{43}$/.test(secret) ? await invitationBySecret(sql, hashSecret(secret)) : undefined;
  const check = checkInvitation(invitation, now);
  if (check !== 'ok') return { failure: check };
  const state = newSecret();
  await setInvitationState(sql, invitation!.id, hashSecret(state), new Date(now.getTime() + CONSENT_STATE_TTL_MS));
  return { redirect: authorizationUrl(runtime.endpoints, state) };
}

/**
 * The provider's redirect back: the `state` must belong to a sent, unexpired,
 * unconsumed invitation. The invitation is consumed first (one winner), then the
 * code is exchanged outside any transaction, then the connection is activated
 * with encrypted tokens.
 */
export async function completeConsent(
  em: EntityManager,
  runtime: LedgerRuntime,
  q: { state?: string; code?: string; realmId?: string; error?: string },
): Promise<{ connectionId: string } | { failure: ConsentFailure }> {
  const now = new Date();
  const sql = sqlOf(em);
  if (!q.state || !/^[A-Za-z0-9_-]{43}$/.test(q.state)) return { failure: 'unknown' };
  const stateHash = hashSecret(q.state);
  const invitation = await invitationByState(sql, stateHash);
  const check = checkInvitation(invitation, now, invitation?.state_expires_at ?? null);
  if (check !== 'ok') return { failure: check };
  if (q.error) return { failure: 'denied' };
  if (!q.code || !q.realmId || !/^[A-Za-z0-9_-]{1,64}$/.test(q.realmId)) return { failure: 'invalid' };
  if (!(await consumeInvitation(sql, invitation!.id, stateHash, now))) return { failure: 'used' };
  let tokens;
  try {
    tokens = await exchangeCode(runtime.endpoints, q.code);
  } catch {
    return { failure: 'exchange_failed' };
  }
  const { cipher } = runtime;
  await em.transactional(async (tem) => {
    await upsertConnection(sqlOf(tem), {
      organizationId: invitation!.organization_id,
      integrationId: invitation!.integration_id,
      environment: invitation!.environment,
      realmId: q.realmId!,
      accessEnc: cipher.encrypt(tokens.accessToken),
      refreshEnc: cipher.encrypt(tokens.refreshToken),
      accessExpiresAt: tokens.accessTokenExpiresAt,
      refreshExpiresAt: tokens.refreshTokenExpiresAt,
      now: new Date(),
    });
    await recordInvitationRealm(sqlOf(tem), invitation!.id, q.realmId!);
  });
  return { connectionId: q.realmId };
}
