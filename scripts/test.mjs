// `npm test`: lint, type-checks and the vitest suite, started together. The suite spends most of its
// time waiting on PostgreSQL, HTTP and child processes, so the checks run in its idle CPU instead of
// before it (docs/performance.md, "Test suite"): at a lower priority, so that the suite's service
// start-ups (bounded in time) are not slowed by them. The checks' output is printed once each has
// ended, the suite's as it runs; the exit code is non-zero when any step failed.
import { spawn } from 'node:child_process';
import { setPriority } from 'node:os';

const steps = [
  { name: 'eslint', command: 'eslint', args: ['.'] },
  { name: 'prettier', command: 'prettier', args: ['--check', '**/*.{ts,tsx}'] },
  // TypeScript 7 (native) checks; TypeScript 5.9 stays for the linter's parser, the emitting build and the SDK's consumers.
  // Single-threaded beside the suite: as fast alone on 2 cores (3.7 s for the server), on half the CPU its parallel
  // checkers spend (4.3 s against 9.0 s), CPU the suite needs.
  { name: 'typecheck (server)', command: 'typescript-native/bin/tsc', args: ['--noEmit', '--singleThreaded', '-p', 'tsconfig.json'] },
  { name: 'typecheck (console)', command: 'typescript-native/bin/tsc', args: ['--noEmit', '--singleThreaded', '-p', 'admin/console/ui/tsconfig.json'] },
];

/** A command of node_modules/.bin, or a package's own file (`package/path`) where two packages link the same name. */
const bin = (command) => new URL(command.includes('/') ? `../node_modules/${command}` : `../node_modules/.bin/${command}`, import.meta.url).pathname;
const started = Date.now();
const seconds = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;

/** Niceness of the checks: below the suite, never above anything. */
const CHECK_NICENESS = 10;

function run(step, stream) {
  return new Promise((resolve) => {
    // A package's own file is run by this Node: npm marks only the files it links as executable.
    const [file, args] = step.command.includes('/') ? [process.execPath, [bin(step.command), ...step.args]] : [bin(step.command), step.args];
    const child = spawn(file, args, { stdio: ['ignore', stream ? 'inherit' : 'pipe', stream ? 'inherit' : 'pipe'] });
    if (!stream && child.pid) {
      try {
        setPriority(child.pid, CHECK_NICENESS);
      } catch {
        // A system that refuses it runs the checks at the suite's priority: slower, not wrong.
      }
    }
    let output = '';
    child.stdout?.on('data', (d) => (output += d));
    child.stderr?.on('data', (d) => (output += d));
    child.on('error', (err) => resolve({ step, code: 1, output: String(err) }));
    child.on('exit', (code, signal) => resolve({ step, code: code ?? (signal ? 1 : 0), output }));
  });
}

const checks = steps.map((step) =>
  run(step, false).then((result) => {
    const verdict = result.code === 0 ? 'ok' : `FAILED (exit ${result.code})`;
    process.stdout.write(`\n== ${step.name}: ${verdict} after ${seconds()}\n${result.code === 0 ? '' : result.output}`);
    return result;
  }),
);
const suite = run({ name: 'vitest', command: 'vitest', args: ['run', ...process.argv.slice(2)] }, true);

const results = await Promise.all([...checks, suite]);
const failed = results.filter((r) => r.code !== 0).map((r) => r.step.name);
process.stdout.write(`\n== npm test: ${failed.length ? `FAILED: ${failed.join(', ')}` : 'all steps passed'} in ${seconds()}\n`);
process.exitCode = failed.length ? 1 : 0;
