import type { PreparationRecord } from '../../../contract/preparations.js';
import type { SavedPreparationStore, StoredPreparation } from './ports.js';
import type { QualificationLevel } from '../qualification/fields.js';
import { DomainError } from '../errors.js';
import type { UnitOfWork } from '../unit-of-work.js';
import { decodeCursor, encodeCursor } from '../pagination.js';
import { preparationRecord } from './prepare-from-invoice.js';

/**
 * What operators see of a preparation: the record, its tenant, the provider, mode, the qualification level its output had
 * when it was saved (`null`: not assessed) and the data returned.
 */
export interface OperatorPreparation extends PreparationRecord {
  organizationId: string;
  integrationId: string;
  environment: string;
  provider: string;
  kind: string;
  mode: string;
  qualificationLevel: QualificationLevel | null;
  idempotencyKey: string;
  data: Record<string, unknown>;
}

const view = (saved: StoredPreparation): OperatorPreparation => ({
  ...preparationRecord(saved),
  organizationId: saved.organizationId,
  integrationId: saved.integrationId,
  environment: saved.environment,
  provider: saved.provider,
  kind: saved.kind,
  mode: saved.mode,
  qualificationLevel: saved.qualificationLevel,
  idempotencyKey: saved.idempotencyKey,
  data: saved.data,
});

/** Operator list (`preparations.list`), oldest first; the cursor is bound to the filters. */
export async function listPreparationsForOperator(
  storage: UnitOfWork<{ preparations: SavedPreparationStore }>,
  input: { invoiceId?: string | undefined; integrationId?: string | undefined; cursor?: string | undefined; limit?: number | undefined },
) {
  const limit = input.limit ?? 25;
  const binding = JSON.stringify(['preparations', input.invoiceId ?? null, input.integrationId ?? null]);
  const after = input.cursor === undefined ? undefined : decodeCursor(input.cursor, binding);
  const rows = await storage.store.preparations.listPreparations({
    invoiceId: input.invoiceId,
    integrationId: input.integrationId,
    after,
    limit: limit + 1,
  });
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    preparations: page.map(view),
    nextCursor: rows.length > limit && last ? encodeCursor({ createdAt: last.createdAt, id: last.id }, binding) : null,
  };
}

/** Operator detail (`preparations.get`). */
export async function getPreparationForOperator(
  storage: UnitOfWork<{ preparations: SavedPreparationStore }>,
  input: { id: string },
): Promise<OperatorPreparation> {
  const row = await storage.store.preparations.preparationById(input.id);
  if (!row) throw new DomainError('not_found', 'No such preparation');
  return view(row);
}
