/**
 * How the accounting provider's client reports failures to the ledger use cases: the client
 * (server/integrations/ledger) throws these, the importer and consent decide on them.
 */

export type LedgerErrorKind = 'unauthorized' | 'throttled' | 'server' | 'client' | 'invalid_grant' | 'network';

export class LedgerHttpError extends Error {
  constructor(
    readonly kind: LedgerErrorKind,
    readonly status: number,
    /** Safe one-line summary: status and provider fault code, never the body. */
    readonly summary: string,
    readonly retryAfterMs?: number,
    /**
     * The failure proves the provider did not act on the request: it refused it
     * unprocessed (429, 503) or it never reached it (no connection was made).
     */
    readonly notActedOn = false,
  ) {
    super(summary);
    this.name = 'LedgerHttpError';
  }
}

/** Refresh failed: the connection needs a person to approve access again. */
export class ReauthorizationRequired extends Error {
  constructor() {
    super('the accounting source refused the refresh token; reauthorization is required');
  }
}

/**
 * The connection stopped being active (an operator paused or disconnected it)
 * while this session was refreshing: the rotated tokens were not stored.
 */
export class ConnectionNoLongerActive extends Error {
  constructor() {
    super('the connection is no longer active; refreshed tokens were not stored');
  }
}

/**
 * The token endpoint failed in a way that leaves open whether it rotated the
 * refresh token (a 5xx other than 503, a reset or timed-out connection, an
 * unusable answer). The stored token is never sent again: the connection needs
 * reauthorization.
 */
export class TokenOutcomeUnknown extends Error {
  constructor() {
    super('the token endpoint failed after it may have rotated the refresh token');
  }
}
