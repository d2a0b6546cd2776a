import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { freePort } from './free-port.js';
import { httpClient, TEST_ADMIN_TOKEN, type TestApp } from './harness.js';
import { compiledEntry } from './service-build.js';
import { scratchDir } from './scratch.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The real service (`server/main`) in a child process of its own, on a port
 * and data dir of its own, so a test can kill it with SIGKILL and start it again
 * on the same port and database. Started compiled, as `npm start` runs it (the
 * suite's build, `compiledEntry`), and by `node` itself, so the pid is the service's.
 */
export interface ServiceProcess extends Pick<TestApp, 'request' | 'admin'> {
  readonly url: string;
  readonly port: number;
  /** Pid of the running instance (changes on restart). */
  readonly pid: number;
  /** Everything the instances wrote on stdout and stderr. */
  readonly output: string;
  /** SIGKILL the instance and wait until it is gone: no shutdown code runs. */
  kill9(): Promise<void>;
  /** Start a new instance with the same settings and port; resolves once it listens. */
  start(): Promise<void>;
  /** SIGTERM and wait; then remove the data dir. */
  close(): Promise<void>;
}

export async function spawnService(
  env: Record<string, string>,
  options: {
    startTimeoutMs?: number;
    /** Node arguments that start the service; default the suite's build of `server/main` (`scripts/start.mjs`: dist/). */
    command?: string[];
  } = {},
): Promise<ServiceProcess> {
  const port = await freePort();
  const dataDir = scratchDir('svc-proc-');
  const url = `http://127.0.0.1:${port}`;
  // One token key for every start: tokens stored before a crash must decrypt after the restart.
  const tokenKey = randomBytes(32).toString('base64');
  let child: ChildProcess | undefined;
  let output = '';

  const start = () =>
    new Promise<void>((resolve, reject) => {
      const proc = spawn(process.execPath, options.command ?? compiledEntry('server/main'), {
        cwd: ROOT,
        env: {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          TMPDIR: process.env.TMPDIR,
          LOG_LEVEL: 'warn',
          SVC_ADMIN_TOKEN: TEST_ADMIN_TOKEN,
          SVC_TOKEN_KEY: tokenKey,
          SVC_PUBLIC_URL: url,
          SVC_RESPONSE_VALIDATION: 'true',
          ...env,
          PORT: String(port),
          HOST: '127.0.0.1',
          SVC_DATA_DIR: dataDir,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child = proc;
      const timer = setTimeout(() => {
        proc.kill('SIGKILL');
        reject(new Error(`service did not start within ${options.startTimeoutMs ?? 30_000} ms:\n${output}`));
      }, options.startTimeoutMs ?? 30_000);
      const onData = (chunk: Buffer) => {
        output += chunk.toString('utf8');
        if (output.includes(`svc listening on http://localhost:${port}`)) {
          clearTimeout(timer);
          resolve();
        }
      };
      proc.stdout!.on('data', onData);
      proc.stderr!.on('data', onData);
      proc.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`service exited (${code ?? signal}) before listening:\n${output}`));
      });
    });

  const waitExit = (proc: ChildProcess | undefined, signal: NodeJS.Signals) =>
    new Promise<void>((resolve) => {
      if (!proc || proc.exitCode !== null || proc.signalCode !== null) return resolve();
      proc.once('exit', () => resolve());
      proc.kill(signal);
    });

  await start();
  const service: ServiceProcess = {
    url,
    port,
    get pid() {
      return child!.pid!;
    },
    get output() {
      return output;
    },
    kill9: () => waitExit(child, 'SIGKILL'),
    start,
    close: async () => {
      await waitExit(child, 'SIGTERM');
      rmSync(dataDir, { recursive: true, force: true });
    },
    ...httpClient(() => url),
  };
  return service;
}
