/**
 * Operator CLI: `npm run admin -- <procedure> '<json input>'`.
 * Calls the running service's /admin/trpc with @trpc/client, using SVC_URL
 * (default http://localhost:3000) and SVC_ADMIN_TOKEN or the token file.
 */
import { createTRPCClient, httpLink, TRPCClientError } from '@trpc/client';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ADMIN_TOKEN_FILE } from '../server/admin-token.js';
import { procedureCatalog } from './procedure-catalog.js';
import type { AdminRouter } from './router.js';

function usage(): string {
  const lines = procedureCatalog().map((p) => `  ${p.name.padEnd(30)} ${p.type.padEnd(9)} ${p.input}`);
  return [
    "usage: npm run admin -- <procedure> '<json input>'",
    '',
    'environment: SVC_URL (default http://localhost:3000), SVC_ADMIN_TOKEN (default: the file <SVC_DATA_DIR>/admin-token)',
    '',
    'procedures:',
    ...lines,
  ].join('\n');
}

function adminToken(): string {
  if (process.env.SVC_ADMIN_TOKEN) return process.env.SVC_ADMIN_TOKEN;
  const file = path.resolve(process.env.SVC_DATA_DIR || '.svc', ADMIN_TOKEN_FILE);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  throw new Error(`no admin token: set SVC_ADMIN_TOKEN or start the service once to create ${file}`);
}

async function main(argv: string[]): Promise<number> {
  const [name, rawInput] = argv;
  if (!name || name === '--help' || name === '-h') {
    console.log(usage());
    return name ? 0 : 2;
  }
  const procedure = procedureCatalog().find((p) => p.name === name);
  if (!procedure) {
    console.error(`unknown procedure "${name}"\n\n${usage()}`);
    return 2;
  }
  let input: unknown;
  if (rawInput !== undefined) {
    try {
      input = JSON.parse(rawInput);
    } catch {
      console.error(`the input must be JSON, for example '{"name":"Acme"}'`);
      return 2;
    }
  }
  const token = adminToken();
  const url = `${(process.env.SVC_URL || 'http://localhost:3000').replace(/\/$/, '')}/admin/trpc`;
  const client = createTRPCClient<AdminRouter>({ links: [httpLink({ url, headers: { authorization: `Bearer ${token}` } })] });
  // Walk `organizations.create` to client.organizations.create, then .query/.mutate by the procedure's kind.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the procedure is chosen at run time from the catalog
  const target = name.split('.').reduce<any>((node, part) => node[part], client);
  const result = procedure.type === 'query' ? await target.query(input) : await target.mutate(input);
  console.log(JSON.stringify(result, null, 2));
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    if (err instanceof TRPCClientError) {
      const data = err.data as { code?: string; issues?: { path: string; message: string }[] } | undefined;
      const details = data?.issues?.map((i) => `\n  - ${i.path || '(input)'}: ${i.message}`).join('') ?? '';
      console.error(`error${data?.code ? ` (${data.code})` : ''}: ${err.message}${details}`);
    } else {
      console.error(`error: ${err instanceof Error ? err.message : String(err)}`);
    }
    process.exit(1);
  },
);
