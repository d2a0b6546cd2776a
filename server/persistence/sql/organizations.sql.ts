import type { Sql } from './sql.js';

export interface OrganizationRow {
  id: string;
  name: string;
  status: 'active' | 'inactive';
}

export async function organizationById(sql: Sql, id: string): Promise<OrganizationRow | undefined> {
  return (await sql<OrganizationRow>(`select id, name, status from organizations where id = ?`, [id]))[0];
}
