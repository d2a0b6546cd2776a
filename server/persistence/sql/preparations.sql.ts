import { withDates, type Sql, type TenantScope } from './sql.js';

/** A saved preparation as the domain reads it. */
export interface PreparationRow {
  id: string;
  organization_id: string;
  integration_id: string;
  environment: string;
  provider: string;
  kind: string;
  stored_invoice_id: string;
  snapshot_id: string;
  revision: string;
  source_integration_id: string;
  connection_id: string;
  source_connection_id: string;
  checked_through: Date;
  amount_minor: string;
  currency: string;
  idempotency_key: string;
  fingerprint: string;
  mode: string;
  data: Record<string, unknown>;
  created_at: Date;
}

const rows = withDates<PreparationRow>(['checked_through', 'created_at']);
const COLUMNS = `id, organization_id, integration_id, environment, provider, kind, stored_invoice_id, snapshot_id, revision, source_integration_id,
  connection_id, source_connection_id, checked_through, amount_minor, currency, idempotency_key, fingerprint, mode, data, created_at`;

/** The preparation an integration saved under an idempotency key, if any. */
export async function preparationByKey(sql: Sql, integrationId: string, idempotencyKey: string): Promise<PreparationRow | undefined> {
  return rows(
    await sql(`select ${COLUMNS} from preparations where integration_id = ? and idempotency_key = ?`, [integrationId, idempotencyKey]),
  )[0];
}

/** A preparation of this integration and environment (payment-report correlation), or any when no scope is given (operators). */
export async function preparationById(
  sql: Sql,
  id: string,
  scope?: { integrationId: string; environment: string },
): Promise<PreparationRow | undefined> {
  const where = scope === undefined ? 'id = ?' : 'id = ? and integration_id = ? and environment = ?';
  const params = scope === undefined ? [id] : [id, scope.integrationId, scope.environment];
  return rows(await sql(`select ${COLUMNS} from preparations where ${where}`, params))[0];
}

export interface PreparationInsert {
  id: string;
  provider: string;
  kind: string;
  storedInvoiceId: string;
  snapshotId: string;
  revision: string;
  sourceIntegrationId: string;
  connectionId: string;
  sourceConnectionId: string;
  checkedThrough: Date;
  amountMinor: number;
  currency: string;
  idempotencyKey: string;
  fingerprint: string;
  mode: string;
  data: unknown;
  createdAt: Date;
}

/** Insert one preparation; the unique (integration, idempotency key) refuses a concurrent duplicate. */
export async function insertPreparation(sql: Sql, scope: TenantScope, row: PreparationInsert): Promise<void> {
  await sql(`insert into preparations (${COLUMNS}) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?)`, [
    row.id,
    scope.organizationId,
    scope.integrationId,
    scope.environment,
    row.provider,
    row.kind,
    row.storedInvoiceId,
    row.snapshotId,
    row.revision,
    row.sourceIntegrationId,
    row.connectionId,
    row.sourceConnectionId,
    row.checkedThrough,
    row.amountMinor,
    row.currency,
    row.idempotencyKey,
    row.fingerprint,
    row.mode,
    JSON.stringify(row.data),
    row.createdAt,
  ]);
}

/** A keyset page of preparations in (created_at, id) order, for operators. */
export async function listPreparations(
  sql: Sql,
  o: {
    invoiceId?: string | undefined;
    integrationId?: string | undefined;
    after?: { createdAt: Date; id: string } | undefined;
    limit: number;
  },
): Promise<PreparationRow[]> {
  const where: string[] = ['true'];
  const params: unknown[] = [];
  const filter = (condition: string, ...values: unknown[]) => {
    where.push(condition);
    params.push(...values);
  };
  if (o.invoiceId !== undefined) filter('stored_invoice_id = ?', o.invoiceId);
  if (o.integrationId !== undefined) filter('integration_id = ?', o.integrationId);
  if (o.after) filter('(created_at, id) > (?, ?)', o.after.createdAt, o.after.id);
  return rows(
    await sql(`select ${COLUMNS} from preparations where ${where.join(' and ')} order by created_at, id limit ?`, [...params, o.limit]),
  );
}
