import type { MikroORM } from '@mikro-orm/postgresql';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, inject } from 'vitest';
import { openOrm } from '../../server/persistence/orm.js';

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

/**
 * The ORM on a fresh migrated database of the test file, with one pooled connection (so every statement of the file
 * runs in the session that prepared it), closed and dropped after the file. Read `orm()` inside tests.
 */
export function useOneConnectionOrm(): () => MikroORM {
  let orm: MikroORM | undefined;
  let drop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const db = await createTestDatabase();
    drop = db.drop;
    orm = await openOrm(db.url, { pool: { min: 0, max: 1 } });
  });
  afterAll(async () => {
    await orm?.close(true);
    await drop?.();
  });
  return () => orm!;
}
