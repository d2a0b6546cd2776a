import type { EntityManager } from '@mikro-orm/postgresql';
import type { RouteAccess } from '../../../contract/common/index.js';
import { contract } from '../../../contract/index.js';
import type { CreateInvitationBody, LedgerInvitationView } from '../../../contract/ledger.js';
import { keyRecordById } from '../../persistence/sql/api-keys.sql.js';
import { connectionById } from '../../persistence/sql/ledger-connections.sql.js';
import { sqlOf } from '../../persistence/sql/sql.js';
import { databaseOf } from '../../persistence/kysely.js';
import type { LedgerPorts } from './ports.js';
import type { AuthContext } from '../auth/auth-context.js';
import { authorizeKey } from '../auth/authenticate.js';
import { DomainError } from '../errors.js';
import { createInvitation } from './create-invitation.js';
import { queueSync } from './queue-sync.js';

function requireRuntime(runtime: LedgerPorts | undefined): LedgerPorts {
  if (!runtime) throw new DomainError('internal_error', 'The accounting source is not configured on this service');
  return runtime;
}

const INVITATION_ACCESS = (contract.ledger.createInvitation.metadata as { access: RouteAccess }).access;

/**
 * The context of a ledger key allowed to invite: an operator invitation is sent on
 * behalf of that key, so the key is judged by the same rule as its own call to
 * endpoint 14 (`authorizeKey`), and the per-key limit and the audit trail
 * (`api_key_id`) are the same. A refusal names the key as the field to change.
 */
async function invitingKeyContext(em: EntityManager, apiKeyId: string): Promise<AuthContext> {
  const key = await keyRecordById(databaseOf(em), apiKeyId);
  if (!key) throw new DomainError('not_found', `No API key ${apiKeyId}`);
  try {
    return authorizeKey(key, INVITATION_ACCESS, key.environment);
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    throw new DomainError('validation_error', err.message, [{ code: 'key_cannot_invite', path: 'apiKeyId', message: err.message }]);
  }
}

/** Operator `invitations.create`: endpoint 14 on behalf of a ledger key; the answer carries the connect URL, as the key's own call does. */
export async function createInvitationForKey(
  em: EntityManager,
  runtime: LedgerPorts | undefined,
  input: { apiKeyId: string; recipientEmail: string; expiresInHours?: number | undefined },
): Promise<LedgerInvitationView> {
  const ctx = await invitingKeyContext(em, input.apiKeyId);
  const body: CreateInvitationBody = { recipientEmail: input.recipientEmail };
  if (input.expiresInHours !== undefined) body.expiresInHours = input.expiresInHours;
  return createInvitation(em, requireRuntime(runtime), { ctx, body });
}

/** Operator `connections.sync`: endpoint 15 for a connection named by its row id (the same reuse of queued or running work). */
export async function queueSyncForConnection(
  em: EntityManager,
  runtime: LedgerPorts | undefined,
  input: { id: string; fullReconciliation?: boolean | undefined },
): Promise<{ syncRunId: string; workflowRunId: string; created: boolean }> {
  const connection = await connectionById(sqlOf(em), input.id);
  if (!connection) throw new DomainError('not_found', 'No such connection');
  return queueSync(em, requireRuntime(runtime), {
    ctx: { integrationId: connection.integrationId },
    realmId: connection.realmId,
    fullReconciliation: input.fullReconciliation ?? false,
  });
}
