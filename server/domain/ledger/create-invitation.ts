import type { Issue } from '../../../contract/common/index.js';
import type { CreateInvitationBody, LedgerInvitationView } from '../../../contract/ledger.js';
import type { TenancyStore } from '../tenancy/ports.js';
import type { UnitOfWork } from '../unit-of-work.js';
import type { AuthContext } from '../auth/auth-context.js';
import { DomainError, refusalOf } from '../errors.js';
import { invitationMetrics } from '../../observability/business-metrics.js';
import { inSpan } from '../../observability/spans.js';
import { invitationEmail } from './invitation-email.js';
import { hashSecret, newSecret } from '../../crypto/secrets.js';
import {
  cooldownRemainingSeconds,
  DEFAULT_INVITATION_HOURS,
  INVITATION_KEY_WINDOW_MS,
  keyLimitRetryAfterSeconds,
} from './invitation-rules.js';
import type { LedgerPorts, LedgerStore } from './ports.js';

type Storage = UnitOfWork<{ ledger: LedgerStore; tenancy: TenancyStore }>;

async function assertContext(ledger: LedgerStore, ctx: AuthContext, body: CreateInvitationBody): Promise<void> {
  const issues: Issue[] = [];
  const mismatch = (path: string) => issues.push({ code: 'context_mismatch', path, message: `Does not match the API key's ${path}` });
  if (body.organizationId !== undefined && body.organizationId !== ctx.organizationId) mismatch('organizationId');
  if (body.environment !== undefined && body.environment !== ctx.environment) mismatch('environment');
  if (body.connectionId !== undefined && !(await ledger.findConnection(ctx.integrationId, body.connectionId))) mismatch('connectionId');
  if (issues.length) throw new DomainError('validation_error', 'A context assertion does not match the authenticated context', issues);
}

/**
 * Endpoint 14: write the invitation (the per-key hourly limit and the per-email
 * cooldown are checked under advisory locks taken in that order, in the same
 * transaction as the insert, so concurrent requests cannot overshoot), commit, then send the email outside any transaction. A delivery failure
 * marks the invitation failed (never usable) and answers 502.
 */
export async function createInvitation(storage: Storage, runtime: LedgerPorts, options: InvitationInput): Promise<LedgerInvitationView> {
  // The one place an invitation's outcome is counted (docs/operations.md, svc_invitations_total).
  try {
    const view = await inSpan('ledger_invitation.create', (s, o) => writeAndSendInvitation(s, runtime, o), storage, options);
    invitationMetrics.sent();
    return view;
  } catch (err) {
    invitationMetrics.refused(refusalOf(err));
    throw err;
  }
}

type InvitationInput = { ctx: AuthContext; body: CreateInvitationBody; now?: Date };

async function writeAndSendInvitation(storage: Storage, runtime: LedgerPorts, options: InvitationInput): Promise<LedgerInvitationView> {
  const { ctx, body } = options;
  const now = options.now ?? new Date();
  await assertContext(storage.store.ledger, ctx, body);
  const org = await storage.store.tenancy.organizationById(ctx.organizationId);
  if (org?.status !== 'active') throw new DomainError('not_found', 'The organization of this API key does not exist or is inactive');

  const secret = newSecret();
  const id = crypto.randomUUID();
  const expiresAt = new Date(now.getTime() + (body.expiresInHours ?? DEFAULT_INVITATION_HOURS) * 3_600_000);
  await storage.transaction(async ({ ledger }) => {
    const limit = runtime.settings.invitationsPerKeyPerHour;
    await ledger.lockApiKey(ctx.apiKeyId);
    const retryAfter = keyLimitRetryAfterSeconds(
      await ledger.limitthInvitationOfKey(ctx.apiKeyId, new Date(now.getTime() - INVITATION_KEY_WINDOW_MS), limit),
      now,
    );
    if (retryAfter > 0) {
      throw new DomainError(
        'rate_limited',
        `This API key created ${limit} invitations in the last hour; retry in ${retryAfter} s`,
        [],
        429,
        { 'Retry-After': String(retryAfter) },
      );
    }
    await ledger.lockRecipient(ctx.integrationId, body.recipientEmail);
    const previous = await ledger.latestInvitationTo(ctx.integrationId, body.recipientEmail);
    const wait = cooldownRemainingSeconds(previous?.createdAt, now);
    if (wait > 0) {
      throw new DomainError('rate_limited', `An invitation was sent to this email less than 30 seconds ago; retry in ${wait} s`, [], 429, {
        'Retry-After': String(wait),
      });
    }
    await ledger.insertInvitation({
      id,
      organizationId: ctx.organizationId,
      integrationId: ctx.integrationId,
      environment: ctx.environment,
      email: body.recipientEmail,
      secretHash: hashSecret(secret),
      expiresAt,
      now,
      apiKeyId: ctx.apiKeyId,
    });
  });

  const connectUrl = `${runtime.settings.publicUrl}/ledger/connect/${secret}`;
  try {
    await runtime.mailer.send(invitationEmail({ to: body.recipientEmail, organizationName: org.name, connectUrl, expiresAt }));
  } catch {
    await storage.store.ledger.markInvitation(id, 'failed', new Date());
    throw new DomainError('upstream_error', 'The invitation email could not be delivered; no invitation was left active. Retry later.');
  }
  await storage.store.ledger.markInvitation(id, 'sent', new Date());
  return {
    id,
    organizationId: ctx.organizationId,
    environment: ctx.environment,
    organizationName: org.name,
    recipientEmail: body.recipientEmail,
    expiresAt: expiresAt.toISOString(),
    connectUrl,
  };
}
