import { decodeCursor, pageOf } from '../pagination.js';
import type { UnitOfWork } from '../unit-of-work.js';
import type { WebhookStore } from './ports.js';

/** Recorded notifications, oldest first, with a keyset cursor. Only the stored summary is shown: no document, no signature. */
export async function listWebhookEvents(
  storage: UnitOfWork<{ webhooks: WebhookStore }>,
  input: { endpointId?: string | undefined; kind?: string | undefined; cursor?: string | undefined; limit: number },
) {
  const rows = await storage.store.webhooks.listWebhookEvents({
    endpointId: input.endpointId || undefined,
    kind: input.kind || undefined,
    after: input.cursor ? decodeCursor(input.cursor) : undefined,
    limit: input.limit + 1,
  });
  const page = pageOf(rows, input.limit);
  return {
    events: page.items.map((e) => ({
      id: e.id,
      endpointId: e.endpointId,
      organizationId: e.organizationId,
      integrationId: e.integrationId,
      environment: e.environment,
      kind: e.kind,
      notificationAt: e.notificationAt.toISOString(),
      subjectType: e.subjectType,
      subjectId: e.subjectId === '' ? null : e.subjectId,
      status: e.status,
      subject: e.subject,
      issues: e.issues ?? [],
      observationId: e.observationId ?? null,
      trackedPaymentId: e.trackedPaymentId ?? null,
      receivedAt: e.createdAt.toISOString(),
    })),
    nextCursor: page.nextCursor,
  };
}
