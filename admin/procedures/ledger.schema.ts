import { z } from 'zod';
import { SyncStateSchema } from '../../contract/common/index.js';
import { CreateInvitationBodySchema } from '../../contract/ledger.js';

const id = z.string().uuid();

/** At most `limit` connections (default 100), newest first. */
export const ConnectionsListInput = z
  .object({ integrationId: id.optional(), limit: z.number().int().min(1).max(500).optional() })
  .strict()
  .optional();
export const ConnectionIdInput = z.object({ id }).strict();
export const SyncRunsListInput = z
  .object({
    connectionId: z.string().min(1).max(160).optional(),
    state: SyncStateSchema.optional(),
    cursor: z.string().max(200).optional(),
    limit: z.number().int().min(1).max(100).optional(),
  })
  .strict()
  .optional();
export const SyncRunGetInput = z.object({ id }).strict();
export const SyncRunFailInput = z.object({ id }).strict();
export const InvitationsListInput = z
  .object({ integrationId: id.optional(), limit: z.number().int().min(1).max(200).optional() })
  .strict()
  .optional();
export const ConnectionSyncInput = z.object({ id, fullReconciliation: z.boolean().optional() }).strict();
/** Endpoint 14's fields, sent on behalf of one of the integration's keys (it needs integrations:write). */
export const InvitationCreateInput = CreateInvitationBodySchema.pick({ recipientEmail: true, expiresInHours: true })
  .extend({ apiKeyId: id })
  .strict();
