import { execFile } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scratchDir } from '../support/scratch.js';

/**
 * The published artefact: build sdk/ with tsc, `npm pack` it, check what the
 * tarball holds, then install it into a fresh project (dependencies from the
 * npm cache or registry) and type-check and run a small program against it.
 */
const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');
const sdkDir = path.join(root, 'sdk');
const tsc = path.join(root, 'node_modules/typescript/bin/tsc');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
/**
 * Child npm runs get a clean environment: under `npm test` the parent exports
 * npm_config_local_prefix and friends, which must not point the nested install
 * at this repository. Only the cache is kept (offline-safe installs).
 */
const npmEnv = {
  ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith('npm_'))),
  ...(process.env.npm_config_cache ? { npm_config_cache: process.env.npm_config_cache } : {}),
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  npm_config_update_notifier: 'false',
};

let work: string;
let tarball: string;
let packedFiles: string[];

beforeAll(async () => {
  work = scratchDir('svc-sdk-pack-');
  rmSync(path.join(sdkDir, 'dist'), { recursive: true, force: true });
  await run(process.execPath, [tsc, '-p', path.join(sdkDir, 'tsconfig.build.json')], { cwd: sdkDir });
  const { stdout } = await run(npm, ['pack', '--ignore-scripts', '--json', '--pack-destination', work], { cwd: sdkDir, env: npmEnv });
  const [packed] = JSON.parse(stdout.slice(stdout.indexOf('[')));
  tarball = path.join(work, packed.filename);
  packedFiles = packed.files.map((f: { path: string }) => f.path);
}, 60_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the packed SDK tarball', () => {
  it('when packed, then it holds only the built SDK and contract (ESM + .d.ts), no server, admin or database code', () => {
    expect(packedFiles).toEqual(
      expect.arrayContaining([
        'package.json',
        'README.md',
        'dist/sdk/src/index.js',
        'dist/sdk/src/index.d.ts',
        'dist/contract/index.js',
        'dist/contract/index.d.ts',
      ]),
    );
    for (const file of packedFiles) {
      expect(file).toMatch(/^(package\.json|README\.md|dist\/(sdk\/src|contract)\/.+\.(js|d\.ts))$/);
      expect(file).not.toMatch(/server|admin|persistence|migration|mikro|express|ledger-sandbox|openapi|examples|\.ts\.map/i);
    }
  });

  it('when its manifest is read, then it is scoped and versioned, exports types and ESM, and depends only on ts-rest core and zod', () => {
    const manifest = JSON.parse(readFileSync(path.join(sdkDir, 'package.json'), 'utf8'));
    expect(manifest.name).toMatch(/^@[a-z0-9-]+\/[a-z0-9-]+$/);
    expect(manifest.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(manifest.exports['.']).toEqual({ types: './dist/sdk/src/index.d.ts', import: './dist/sdk/src/index.js' });
    expect(Object.keys(manifest.dependencies).sort()).toEqual(['@ts-rest/core', 'zod']);
    expect(manifest.peerDependencies).toBeUndefined();
    const rootManifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
    for (const [name, version] of Object.entries(manifest.dependencies)) expect(version).toBe(rootManifest.dependencies[name]);
    const everything = JSON.stringify(manifest);
    for (const banned of ['express', 'mikro-orm', '"pg"', 'pg-boss', 'nodemailer', '@trpc']) expect(everything).not.toContain(banned);
  });

  it('when the built JavaScript is read, then it imports nothing but relative files, @ts-rest/core and zod', () => {
    const imports = new Set<string>();
    for (const file of packedFiles.filter((f) => f.endsWith('.js') || f.endsWith('.d.ts'))) {
      const text = readFileSync(path.join(sdkDir, file), 'utf8');
      for (const match of text.matchAll(/(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g))
        if (!match[1]!.startsWith('.')) imports.add(match[1]!);
    }
    expect([...imports].sort()).toEqual(['@ts-rest/core', 'zod']);
  });

  it('when a fresh project installs the tarball, then a small program type-checks against it and runs', async () => {
    const project = path.join(work, 'consumer');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(project);
    writeFileSync(
      path.join(project, 'package.json'),
      JSON.stringify({ name: 'consumer', version: '1.0.0', private: true, type: 'module' }),
    );
    await run(npm, ['install', tarball, '--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: project, env: npmEnv });
    writeFileSync(
      path.join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          lib: ['ES2022', 'DOM'],
          types: [],
          strict: true,
          noEmit: true,
          skipLibCheck: false,
        },
        files: ['program.ts'],
      }),
    );
    writeFileSync(
      path.join(project, 'program.ts'),
      `import { createClient, newEventId, newIdempotencyKey, SvcError, mergeGwcPaymentIntent, type CanonicalInvoice, type GwcPaymentReport } from '@svc/sdk';

const svc = createClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'sk_test', retry: { maxAttempts: 2 }, timeoutMs: 1000 });
declare const invoice: CanonicalInvoice;

export async function flow(): Promise<string> {
  const enriched = await svc.gwc.enrichPaymentIntent({ body: { invoice, options: { taxRepresentation: 'transaction' } } });
  const status: 200 = enriched.status;
  const orderReference: string = enriched.body.data.payment_details.order_reference;
  const params = mergeGwcPaymentIntent({ amount: 100, currency: 'usd' }, enriched.body.data);
  const lines: number = params.amount_details.line_items.length;
  const report: GwcPaymentReport = {
    eventId: newEventId(), attemptId: 'att_1', status: 'captured', currency: 'usd', amountMinor: 100,
    capturedAmountMinor: 100, refundedAmountMinor: 0, occurredAt: new Date().toISOString(), source: 'sdk',
    ...(enriched.requestId ? { enrichmentRequestId: enriched.requestId } : {}),
  };
  const ack = await svc.gwc.reportPayment({ body: report });
  const duplicate: boolean = ack.body.data.duplicate;
  // @ts-expect-error responses are typed (not any): there is no such field
  void enriched.body.data.noSuchField;
  const sync = await svc.ledger.getSync({ params: { connectionId: 'realm-1' } });
  const state: 'queued' | 'running' | 'succeeded' | 'failed' | undefined = sync.body.data?.state;
  void state;
  // @ts-expect-error a gwa report has no requires_action status
  await svc.gwa.reportPayment({ body: { ...report, source: 'api', status: 'requires_action' } });
  // @ts-expect-error unknown body keys are rejected at compile time
  await svc.gwb.enrichOrder({ body: { invoice, amount: 1 } });
  let ready = 0;
  for await (const summary of svc.invoices.listAll({ query: { invoiceNumber: 'INV-1', limit: 50 } })) if (summary.ready) ready++;
  const detail = await svc.invoices.get({ params: { invoiceId: 'a-uuid' } });
  const detailLines: number | undefined = detail.body.data.invoice?.lineItems.length;
  // @ts-expect-error the iterator owns the cursor
  svc.invoices.listAll({ query: { cursor: 'c' } });
  const namespaces: object[] = [svc.invoices, svc.ledger];
  return [status, orderReference, lines, duplicate, ready, detailLines, namespaces.length].join() + newIdempotencyKey();
}

export function describeError(err: unknown): string {
  return err instanceof SvcError ? \`\${err.status} \${err.type} \${err.requestId} \${err.issues.map((i) => i.code)}\` : 'unknown';
}
`,
    );
    await run(process.execPath, [tsc, '-p', project], { cwd: project, env: npmEnv }).catch((err: { stdout?: string }) => {
      throw new Error(`tsc failed against the packed SDK:\n${err.stdout}`);
    });
    writeFileSync(
      path.join(project, 'smoke.mjs'),
      `import { createClient, newIdempotencyKey, contract } from '@svc/sdk';
const svc = createClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'k' });
console.log(JSON.stringify({ ns: Object.keys(svc).sort(), key: newIdempotencyKey('chk'), routes: Object.keys(contract).sort(), fn: typeof svc.gwc.reportPayment, listAll: typeof svc.invoices.listAll }));`,
    );
    const { stdout } = await run(process.execPath, ['smoke.mjs'], { cwd: project, env: npmEnv });
    const out = JSON.parse(stdout);
    expect(out.ns).toEqual(expect.arrayContaining(['gwa', 'gwb', 'gwc', 'invoices', 'ledger']));
    expect(out.key).toMatch(/^chk_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(out.fn).toBe('function');
    expect(out.listAll).toBe('function');
  }, 60_000);
});
