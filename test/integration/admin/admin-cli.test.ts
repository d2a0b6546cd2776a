import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { TEST_ADMIN_TOKEN, useTestApp } from '../../support/harness.js';
import { gwcReport } from '../../support/reports.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');

describe('admin surface: the operator CLI', () => {
  const app = useTestApp();

  // One CLI process per call (each loads the admin router): the calls that depend on no other run together.
  it('when the operator CLI is run against the server, then it round-trips and reports errors readably', { timeout: 180_000 }, async () => {
    const run = (args: string[], env: Record<string, string> = {}) =>
      new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, ['--import', 'tsx', 'admin/cli.ts', ...args], {
          cwd: ROOT,
          env: { ...process.env, SVC_URL: app.url, SVC_ADMIN_TOKEN: TEST_ADMIN_TOKEN, ...env },
        });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (d) => (stdout += d));
        child.stderr.on('data', (d) => (stderr += d));
        child.on('close', (code) => resolve({ code, stdout, stderr }));
      });
    const [created, invalid, denied, help] = await Promise.all([
      run(['organizations.create', '{"name":"From CLI"}']),
      run(['apiKeys.issue', '{"integrationId":"nope","scopes":[]}']),
      run(['organizations.list'], { SVC_ADMIN_TOKEN: 'x'.repeat(40) }),
      run(['--help']),
    ]);
    expect(created.code).toBe(0);
    const org = JSON.parse(created.stdout);
    expect(org.name).toBe('From CLI');
    const [integrationCreated, listed] = await Promise.all([
      run(['integrations.create', JSON.stringify({ organizationId: org.id, provider: 'gwc', environment: 'sandbox' })]),
      run(['organizations.list']),
    ]);
    const integration = JSON.parse(integrationCreated.stdout);
    const key = JSON.parse(
      (await run(['apiKeys.issue', JSON.stringify({ integrationId: integration.id, scopes: ['payments:write'] })])).stdout,
    );
    const report = await app.request('/api/v1/gwc/payment-reports', { method: 'POST', json: gwcReport(), key: key.key });
    expect(report.status).toBe(200);
    expect(JSON.parse(listed.stdout).map((o: any) => o.name)).toContain('From CLI');

    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toContain('error (BAD_REQUEST): Invalid input');
    expect(invalid.stderr).toContain('- integrationId: Invalid uuid');
    expect(denied.code).toBe(1);
    expect(denied.stderr).toContain('error (UNAUTHORIZED)');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('apiKeys.issue                  mutation  {integrationId: uuid, scopes: [');
  });
});
