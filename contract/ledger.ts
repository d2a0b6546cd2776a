import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import {
  EnvironmentSchema,
  ErrorEnvelopeSchema,
  REFERENCE_MAX,
  SyncStateSchema,
  TimestampSchema,
  access,
  ledgerEnvelope,
} from './common/index.js';

const c = initContract();

/** Public connection id: the accounting provider's company id (realmId). */
export const ConnectionIdSchema = z
  .string()
  .min(1)
  .max(REFERENCE_MAX)
  .regex(/^[A-Za-z0-9_-]+$/, 'Expected a connection id (letters, digits, _ or -)');

export const CreateInvitationBodySchema = z
  .object({
    recipientEmail: z.string({ required_error: 'recipientEmail is required' }).max(254).email('Expected a valid email address'),
    expiresInHours: z
      .number()
      .int('Expected whole hours')
      .min(1, 'Must be at least 1 hour')
      .max(168, 'Must be at most 168 hours')
      .optional(),
    organizationId: z.string().optional().describe("Context assertion: must equal the key's organization"),
    environment: EnvironmentSchema.optional().describe("Context assertion: must equal the key's environment"),
    connectionId: z.string().optional().describe("Context assertion: must be a connection of the key's integration"),
    // Spec endpoint 14: caller-supplied requester names or emails are not used; sent, they are ignored (never stored or mailed).
    requesterName: z.string().optional().describe('Ignored: the sender identity derives from the key'),
    requesterEmail: z.string().optional().describe('Ignored: the sender identity derives from the key'),
  })
  .strict()
  .describe('Connection invitation request');
export type CreateInvitationBody = z.infer<typeof CreateInvitationBodySchema>;

export const LedgerInvitationSchema = z
  .object({
    id: z.string().uuid(),
    organizationId: z.string().uuid(),
    environment: EnvironmentSchema,
    organizationName: z.string(),
    recipientEmail: z.string(),
    expiresAt: TimestampSchema,
    connectUrl: z.string().url().describe('Sensitive, single-purpose and expiring; only a hash of its secret is stored'),
  })
  .strict();
export type LedgerInvitationView = z.infer<typeof LedgerInvitationSchema>;

const SafeErrorSchema = z.object({ code: z.string(), message: z.string() }).strict();

export const SyncEntityProgressSchema = z
  .object({
    state: z.enum(['pending', 'running', 'done', 'failed']),
    pages: z.number().int(),
    fetched: z.number().int(),
    created: z.number().int(),
    updated: z.number().int(),
    unchanged: z.number().int(),
    deleted: z
      .number()
      .int()
      .describe('Stored records found deleted at the source (change data capture, or missing from a full reconciliation)'),
    cursor: z.object({ startPosition: z.number().int(), lastUpdatedTime: z.string().nullable() }).strict().nullable(),
    error: SafeErrorSchema.nullable(),
  })
  .strict();
export type SyncEntityProgress = z.infer<typeof SyncEntityProgressSchema>;

export const SyncRunSchema = z
  .object({
    id: z.string().uuid(),
    connectionId: z.string(),
    workflowRunId: z.string().uuid(),
    state: SyncStateSchema.describe('See docs/ledger-sync.md for the moves'),
    mode: z.enum(['historical', 'incremental', 'full']),
    fullReconciliation: z.boolean(),
    sourcePeriodStart: TimestampSchema.nullable().describe('Source changes from this time (null: from the beginning)'),
    sourcePeriodEnd: TimestampSchema.nullable().describe('…through this boundary; becomes `checkedThrough` on success'),
    createdAt: TimestampSchema,
    startedAt: TimestampSchema.nullable(),
    completedAt: TimestampSchema.nullable(),
    progress: z.object({ entitiesDone: z.number().int(), entitiesTotal: z.number().int(), recordsStored: z.number().int() }).strict(),
    entities: z
      .object({ Preferences: SyncEntityProgressSchema, Item: SyncEntityProgressSchema, Invoice: SyncEntityProgressSchema })
      .strict(),
    error: SafeErrorSchema.nullable(),
  })
  .strict();
export type SyncRunView = z.infer<typeof SyncRunSchema>;

/** Empty body, `{}` or `{fullReconciliation}`; an empty body is read as `{}` (so SDK callers may omit it). */
export const QueueSyncBodySchema = z
  .object({ fullReconciliation: z.boolean({ invalid_type_error: 'Must be a boolean' }).optional() })
  .strict();

const connectionPath = z.object({
  connectionId: ConnectionIdSchema.describe('The accounting-source connection id (the company id in the source)'),
});

export const ledgerRoutes = c.router({
  createInvitation: c.mutation({
    method: 'POST',
    path: '/integrations/ledger/invitations',
    body: CreateInvitationBodySchema,
    responses: {
      201: ledgerEnvelope('ledger.connection_invitation', { invitation: LedgerInvitationSchema }),
      404: ErrorEnvelopeSchema.describe('Missing or inactive organization'),
      429: ErrorEnvelopeSchema.describe('Same recipient email within the 30-second cooldown; see Retry-After'),
      502: ErrorEnvelopeSchema.describe('The invitation email could not be delivered'),
    },
    summary: 'Invite an accounting administrator to connect the accounting source',
    description:
      "Creates an expiring, single-purpose connect URL and emails it to the recipient, who approves access on the accounting provider's " +
      'consent page. Sender and merchant derive from the key; context assertions must match it.',
    metadata: { ...access('ledger', ['integrations:write']), operationId: 'ledgerCreateInvitation' },
  }),
  queueSync: c.mutation({
    method: 'POST',
    path: '/integrations/ledger/:connectionId/sync',
    pathParams: connectionPath,
    body: QueueSyncBodySchema,
    responses: {
      202: ledgerEnvelope('ledger.sync_run', {
        data: z.object({ syncRunId: z.string().uuid(), workflowRunId: z.string().uuid(), created: z.boolean() }).strict(),
      }),
      404: ErrorEnvelopeSchema.describe("The connection is not in the key's scope"),
      409: ErrorEnvelopeSchema.describe('The connection is paused, disconnected or needs reauthorization'),
    },
    summary: 'Queue an import from the accounting source',
    description:
      'Accepts (202) an import of Preferences, Items and Invoices changed since the last checkpoint. Queued or running work is reused (`created: false`).',
    metadata: { ...access('ledger', ['integrations:write']), operationId: 'ledgerQueueSync' },
  }),
  getSync: c.query({
    method: 'GET',
    path: '/integrations/ledger/:connectionId/sync',
    pathParams: connectionPath,
    responses: {
      200: ledgerEnvelope('ledger.sync_run', { data: SyncRunSchema.nullable() }),
      404: ErrorEnvelopeSchema.describe("The connection is not in the key's scope"),
    },
    summary: 'Latest sync run of a connection',
    description:
      'The latest run with its state, source period, timestamps, progress and per-entity counts, cursors and safe error summaries; `data` is null before the first run.',
    metadata: { ...access('ledger', ['integrations:read']), operationId: 'ledgerGetSync' },
  }),
});
