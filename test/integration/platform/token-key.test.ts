import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
/** `node --import tsx`: what the tsx wrapper runs, without the wrapper's extra process start-up. */
const tsx = (args: string[]) => [process.execPath, ['--import', 'tsx', ...args]] as const;

describe('token key: generated file and the separate worker', () => {
  it('when several processes start together without SVC_TOKEN_KEY, then they all use the one key file (mode 0600) and no temp file is left', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'svc-key-'));
    try {
      // Each child blocks on its stdin once started; one byte to each, written together, starts the race.
      const children = Array.from({ length: 6 }, () =>
        spawn(...tsx(['test/support/token-key-child.ts', dir]), { stdio: ['pipe', 'pipe', 'inherit'] }),
      );
      const outputs = children.map((child) => {
        let out = '';
        child.stdout!.on('data', (d) => (out += d));
        const ready = new Promise<void>((resolve, reject) => {
          child.stdout!.on('data', () => out.startsWith('ready\n') && resolve());
          child.once('exit', (code) => reject(new Error(`token-key child exited (${code}) before it was ready`)));
        });
        const exited = new Promise<string>((resolve, reject) =>
          child.once('close', (code) =>
            code === 0 ? resolve(out.slice('ready\n'.length)) : reject(new Error(`token-key child exited ${code}`)),
          ),
        );
        return { ready, exited };
      });
      await Promise.all(outputs.map((o) => o.ready));
      for (const child of children) child.stdin!.end('go');
      const keys = await Promise.all(outputs.map((o) => o.exited));
      const file = readFileSync(path.join(dir, 'token-key'), 'utf8').trim();
      expect(Buffer.from(file, 'base64')).toHaveLength(32);
      expect(keys).toEqual(Array(6).fill(file));
      expect(statSync(path.join(dir, 'token-key')).mode & 0o777).toBe(0o600);
      expect(readdirSync(dir)).toEqual(['token-key']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('when `npm run worker` starts without SVC_TOKEN_KEY, then it refuses to start (exit 78) and names the variable', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'svc-worker-'));
    const env = {
      PATH: process.env.PATH,
      SVC_DATA_DIR: dir,
      DATABASE_URL: 'postgres://svc@127.0.0.1:9/svc',
      LEDGER_BASE_URL: 'http://127.0.0.1:9',
      LEDGER_AUTH_URL: 'http://127.0.0.1:9/connect/oauth2',
      LEDGER_TOKEN_URL: 'http://127.0.0.1:9/oauth2/v1/tokens/bearer',
      LEDGER_CLIENT_ID: 'client',
      LEDGER_CLIENT_SECRET: 'secret',
    };
    try {
      const failure = await run(...tsx(['server/jobs/worker.ts']), { env, timeout: 20_000 }).then(
        () => ({ code: 0, stderr: '' }),
        (err: { code: number; stderr: string }) => err,
      );
      expect(failure.code).toBe(78);
      expect(failure.stderr).toContain('SVC_TOKEN_KEY: must be set for a separate worker');
      expect(readdirSync(dir)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
