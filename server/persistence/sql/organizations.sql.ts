import type { Selectable } from 'kysely';
import type { Organization } from '../../domain/tenancy/types.js';
import { db, first, run, type Database } from '../db/query.js';
import type { Sql } from './sql.js';

const columns = ['id', 'name', 'status', 'created_at'] as const;

const organizationOf = (row: Pick<Selectable<Database['organizations']>, (typeof columns)[number]>): Organization => ({
  id: row.id,
  name: row.name,
  status: row.status,
  createdAt: new Date(row.created_at),
});

export async function insertOrganization(sql: Sql, organization: Organization): Promise<Organization> {
  const row = await first(
    sql,
    db
      .insertInto('organizations')
      .values({ id: organization.id, name: organization.name, status: organization.status, created_at: organization.createdAt })
      .returning(columns),
  );
  return organizationOf(row!);
}

export async function organizationById(sql: Sql, id: string): Promise<Organization | undefined> {
  const row = await first(sql, db.selectFrom('organizations').select(columns).where('id', '=', id));
  return row && organizationOf(row);
}

export async function listOrganizations(sql: Sql): Promise<Organization[]> {
  const rows = await run(sql, db.selectFrom('organizations').select(columns).orderBy('created_at').orderBy('id'));
  return rows.map(organizationOf);
}
