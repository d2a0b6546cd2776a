import type { LedgerTokenStore } from '../domain/ledger/ports.js';
import { markReauthorizationRequired, storeTokens } from './sql/ledger-connections.sql.js';
import type { Sql } from './sql/sql.js';

/** The domain's `LedgerTokenStore` on the connection rows; each write commits on its own, at once. */
export function ledgerTokenStore(sql: Sql): LedgerTokenStore {
  return {
    markReauthorizationRequired: async (connectionId) => {
      await markReauthorizationRequired(sql, connectionId);
    },
    storeTokens: (connectionId, tokens) => storeTokens(sql, connectionId, tokens),
  };
}
