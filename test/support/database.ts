import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';

export async function withAdminClient<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: inject('adminDatabaseUrl') });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

export function databaseUrl(name: string): string {
  const url = new URL(inject('adminDatabaseUrl'));
  url.pathname = `/${name}`;
  return url.toString();
}

/** A fresh database for one test file: migrated (a clone of the template) or empty. */
export async function createTestDatabase(
  options: { migrated?: boolean } = {},
): Promise<{ name: string; url: string; drop(): Promise<void> }> {
  const name = `svc_test_${randomBytes(6).toString('hex')}`;
  const template = options.migrated === false ? 'template0' : inject('templateDatabase');
  await withAdminClient((c) => c.query(`create database "${name}" template "${template}"`));
  return {
    name,
    url: databaseUrl(name),
    drop: () => withAdminClient((c) => c.query(`drop database if exists "${name}" with (force)`)).then(() => undefined),
  };
}
