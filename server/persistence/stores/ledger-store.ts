import type { LedgerStore } from '../../domain/ledger/ports.js';
import type { Database } from '../kysely.js';
import { keyRecordById } from '../sql/api-keys.sql.js';
import * as connections from '../sql/ledger-connections.sql.js';
import * as invitations from '../sql/ledger-invitations.sql.js';
import * as sourceRecords from '../sql/ledger-source-records.sql.js';
import * as runs from '../sql/ledger-sync-runs.sql.js';

export function ledgerStore(db: Database): LedgerStore {
  return {
    findConnection: (integrationId, realmId, lock) => connections.findConnection(db, integrationId, realmId, lock),
    connectionById: (id, lock) => connections.connectionById(db, id, lock),
    claimConnection: (c) => connections.claimConnection(db, c),
    storeConsentTokens: (id, t) => connections.storeConsentTokens(db, id, t),
    storeTokens: (id, t) => connections.storeTokens(db, id, t),
    markReauthorizationRequired: (id) => connections.markReauthorizationRequired(db, id),
    setConnectionStatus: (id, status) => connections.setConnectionStatus(db, id, status),
    listConnections: (filter) => connections.listConnections(db, filter),
    configureConnection: (id, s) => connections.configureConnection(db, id, s),
    disconnectConnection: (id) => connections.disconnectConnection(db, id),
    connectionsWithLegacyTokens: () => connections.connectionsWithLegacyTokens(db),
    replaceTokensIfUnchanged: (id, was, now) => connections.replaceTokensIfUnchanged(db, id, was, now),
    advanceCheckpoint: (connectionId, through) => connections.advanceCheckpoint(db, connectionId, through),

    lockRecipient: (integrationId, email) => invitations.lockRecipient(db, integrationId, email),
    lockApiKey: (apiKeyId) => invitations.lockApiKey(db, apiKeyId),
    limitthInvitationOfKey: (apiKeyId, since, limit) => invitations.limitthInvitationOfKey(db, apiKeyId, since, limit),
    latestInvitationTo: (integrationId, email) => invitations.latestInvitationTo(db, integrationId, email),
    insertInvitation: (row) => invitations.insertInvitation(db, row),
    markInvitation: (id, status, at) => invitations.markInvitation(db, id, status, at),
    invitationBySecret: (secretHash) => invitations.invitationBySecret(db, secretHash),
    setInvitationState: (id, stateHash, expiresAt) => invitations.setInvitationState(db, id, stateHash, expiresAt),
    invitationByState: (stateHash) => invitations.invitationByState(db, stateHash),
    consumeInvitation: (id, stateHash, now) => invitations.consumeInvitation(db, id, stateHash, now),
    recordInvitationRealm: (id, realmId) => invitations.recordInvitationRealm(db, id, realmId),
    listInvitations: (filter) => invitations.listInvitations(db, filter),
    // TRANSITIONAL: api-keys.sql.ts still takes `Sql`; once it takes `Database`, this passes `db`.
    keyRecordById: (apiKeyId) => keyRecordById(db, apiKeyId),

    upsertSourceRecords: (o) => sourceRecords.upsertSourceRecords(db, o),
    markDeleted: (o) => sourceRecords.markDeleted(db, o),
    markSeen: (o) => sourceRecords.markSeen(db, o),
    markUnseenDeleted: (o) => sourceRecords.markUnseenDeleted(db, o),

    activeRun: (connectionId) => runs.activeRun(db, connectionId),
    latestRun: (connectionId) => runs.latestRun(db, connectionId),
    runById: (id, lock) => runs.runById(db, id, lock),
    openRunIds: (limit) => runs.openRunIds(db, limit),
    lockRunUnlessLocked: (id) => runs.lockRunUnlessLocked(db, id),
    insertRun: (r) => runs.insertRun(db, r),
    startRunAttempt: (id, now) => runs.startRunAttempt(db, id, now),
    saveRunEntities: (id, entities) => runs.saveRunEntities(db, id, entities),
    recordRunError: (id, error) => runs.recordRunError(db, id, error),
    finishRun: (id, state, error, now) => runs.finishRun(db, id, state, error, now),
    listRuns: (f) => runs.listRuns(db, f),
    runLeaseFree: (runId) => runs.runLeaseFree(db, runId),
  };
}
