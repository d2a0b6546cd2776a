import type { EntityManager } from '@mikro-orm/postgresql';
import type { PreparationRecord } from '../../../contract/preparations.js';
import { listPreparations, preparationById, type PreparationRow } from '../../persistence/sql/preparations.sql.js';
import { sqlOf } from '../../persistence/sql/sql.js';
import { DomainError } from '../errors.js';
import { decodeCursor, encodeCursor } from '../pagination.js';
import { preparationRecord } from './prepare-from-invoice.js';

/** What operators see of a preparation: the record, its tenant, the provider, mode and the data returned. */
export interface OperatorPreparation extends PreparationRecord {
  organizationId: string;
  integrationId: string;
  environment: string;
  provider: string;
  kind: string;
  mode: string;
  idempotencyKey: string;
  data: Record<string, unknown>;
}

const view = (row: PreparationRow): OperatorPreparation => ({
  ...preparationRecord(row),
  organizationId: row.organization_id,
  integrationId: row.integration_id,
  environment: row.environment,
  provider: row.provider,
  kind: row.kind,
  mode: row.mode,
  idempotencyKey: row.idempotency_key,
  data: row.data,
});

/** Operator list (`preparations.list`), oldest first; the cursor is bound to the filters. */
export async function listPreparationsForOperator(
  em: EntityManager,
  input: { invoiceId?: string | undefined; integrationId?: string | undefined; cursor?: string | undefined; limit?: number | undefined },
) {
  const limit = input.limit ?? 25;
  const binding = JSON.stringify(['preparations', input.invoiceId ?? null, input.integrationId ?? null]);
  const after = input.cursor === undefined ? undefined : decodeCursor(input.cursor, binding);
  const rows = await listPreparations(sqlOf(em), {
    invoiceId: input.invoiceId,
    integrationId: input.integrationId,
    after,
    limit: limit + 1,
  });
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    preparations: page.map(view),
    nextCursor: rows.length > limit && last ? encodeCursor({ createdAt: last.created_at, id: last.id }, binding) : null,
  };
}

/** Operator detail (`preparations.get`). */
export async function getPreparationForOperator(em: EntityManager, input: { id: string }): Promise<OperatorPreparation> {
  const row = await preparationById(sqlOf(em), input.id);
  if (!row) throw new DomainError('not_found', 'No such preparation');
  return view(row);
}
