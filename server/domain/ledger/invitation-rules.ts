/** Spec Limits: invitation cooldown of 30 seconds per repeated email. */
export const INVITATION_COOLDOWN_MS = 30_000;
/** Spec endpoint 14: lifetime 1-168 hours, default 48. */
export const DEFAULT_INVITATION_HOURS = 48;
/** How long the OAuth `state` of one opened connect URL stays valid. */
export const CONSENT_STATE_TTL_MS = 15 * 60_000;

/** Seconds left in the cooldown after an earlier invitation, or 0 when a new one may be sent. */
export function cooldownRemainingSeconds(previousCreatedAt: Date | undefined, now: Date): number {
  if (!previousCreatedAt) return 0;
  const left = previousCreatedAt.getTime() + INVITATION_COOLDOWN_MS - now.getTime();
  return left > 0 ? Math.ceil(left / 1000) : 0;
}

/** The per-key invitation limit counts invitations created in this trailing window. */
export const INVITATION_KEY_WINDOW_MS = 3_600_000;

/**
 * Seconds until one more invitation fits under the per-key hourly limit: the
 * limit-th newest invitation in the window must age out. 0 when under the limit.
 */
export function keyLimitRetryAfterSeconds(limitthNewestCreatedAt: Date | undefined, now: Date): number {
  if (!limitthNewestCreatedAt) return 0;
  const left = limitthNewestCreatedAt.getTime() + INVITATION_KEY_WINDOW_MS - now.getTime();
  return left > 0 ? Math.ceil(left / 1000) : 0;
}

export type ConsentCheck = 'ok' | 'unknown' | 'expired' | 'used';

/** Why an invitation (looked up by connect secret or by state) cannot be used now. */
export function checkInvitation(
  inv: { status: string; expiresAt: Date } | undefined,
  now: Date,
  stateExpiresAt?: Date | null,
): ConsentCheck {
  if (!inv || inv.status === 'failed' || inv.status === 'pending') return 'unknown';
  if (inv.status === 'consumed') return 'used';
  if (inv.expiresAt.getTime() <= now.getTime()) return 'expired';
  if (stateExpiresAt !== undefined && (!stateExpiresAt || stateExpiresAt.getTime() <= now.getTime())) return 'expired';
  return 'ok';
}
