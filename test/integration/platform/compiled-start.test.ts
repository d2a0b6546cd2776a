import { readFileSync, statSync, utimesSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../support/database.js';
import { spawnService, type ServiceProcess } from '../../support/service-process.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const STAMP = path.join(ROOT, 'dist/.build-stamp.json');

/**
 * `npm start` (scripts/start.mjs) runs the compiled JavaScript in dist/, building it first when it is missing or
 * older than a source file. Builds the real dist/ of this checkout (git-ignored), as `npm ci && npm start` does.
 */
describe('production start from dist/', () => {
  let service: ServiceProcess | undefined;
  let drop: (() => Promise<void>) | undefined;
  afterAll(async () => {
    await service?.close();
    await drop?.();
  });

  it('when a source is newer than dist/, then start rebuilds, runs dist/server/main.js without tsx and serves /readyz and the console', async () => {
    const db = await createTestDatabase();
    drop = db.drop;
    // A source touched after the last build: the next start must build again.
    const touched = path.join(ROOT, 'server/config.ts');
    const now = new Date();
    utimesSync(touched, now, now);
    service = await spawnService({ DATABASE_URL: db.url }, { command: ['scripts/start.mjs'], startTimeoutMs: 180_000 });
    // The first stale source found is named: the touched file, or one changed since the last build.
    expect(service.output).toMatch(/^building dist\/ \((.+ changed|dist\/ is missing|source files were added or removed)\)$/m);
    expect(JSON.parse(readFileSync(STAMP, 'utf8')).startedAt).toBeGreaterThanOrEqual(statSync(touched).mtimeMs - 1);

    // The process runs the compiled entry: no TypeScript loader in its arguments or its loaded modules.
    const cmdline = readFileSync(`/proc/${service.pid}/cmdline`, 'utf8').split('\0');
    expect(cmdline.slice(1, 2)).toEqual(['scripts/start.mjs']);
    expect(cmdline.join(' ')).not.toContain('tsx');
    expect(statSync(path.join(ROOT, 'dist/server/main.js')).isFile()).toBe(true);

    const ready = await service.request('/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ready' });
    // The console is bundled from the sources copied beside the compiled code.
    const page = await service.request('/admin/');
    expect(page.status).toBe(200);
    const script = /src="(\/admin\/assets\/console-[^"]+\.js)"/.exec(page.text)?.[1];
    expect((await service.request(script!)).status).toBe(200);

    // Started again with nothing changed: no build.
    await service.close();
    service = await spawnService({ DATABASE_URL: db.url }, { command: ['scripts/start.mjs'] });
    expect(service.output).not.toContain('building dist/');
    expect((await service.request('/readyz')).status).toBe(200);
  }, 300_000);
});
