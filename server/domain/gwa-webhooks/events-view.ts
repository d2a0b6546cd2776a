import type { EntityManager } from '@mikro-orm/postgresql';
import { WebhookEvent } from '../../persistence/entities/index.js';
import { afterCursor, pageOf } from '../../domain/pagination.js';

/** Recorded notifications, oldest first, with a keyset cursor. Only the stored summary is shown: no document, no signature. */
export async function listWebhookEvents(
  em: EntityManager,
  input: { endpointId?: string | undefined; kind?: string | undefined; cursor?: string | undefined; limit: number },
) {
  const rows = await em.find(
    WebhookEvent,
    {
      ...(input.endpointId ? { endpoint: input.endpointId } : {}),
      ...(input.kind ? { kind: input.kind } : {}),
      ...afterCursor(input.cursor),
    },
    { orderBy: { createdAt: 'asc', id: 'asc' }, limit: input.limit + 1 },
  );
  const page = pageOf(rows, input.limit);
  return {
    events: page.items.map((e) => ({
      id: e.id,
      endpointId: e.endpoint.id,
      organizationId: e.organization.id,
      integrationId: e.integration.id,
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
