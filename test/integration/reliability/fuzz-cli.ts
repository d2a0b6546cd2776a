import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';

/**
 * `npm run fuzz -- --runs N [--seed S]`: the contract fuzzer with N cases per
 * route and procedure (the suite runs 25 with a fixed seed). Same test file,
 * same real PostgreSQL; a failure prints the counterexample and its seed.
 */
const { values } = parseArgs({ options: { runs: { type: 'string', default: '500' }, seed: { type: 'string' } } });
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs must be a positive integer');
const seed = values.seed ?? String(Date.now() % 2 ** 31);
console.log(`fuzzing with ${runs} runs per target, seed ${seed}`);
const result = spawnSync(
  'npx',
  ['vitest', 'run', 'test/integration/reliability/contract-fuzz.test.ts', '--testTimeout', String(runs * 2_000)],
  { stdio: 'inherit', env: { ...process.env, FUZZ_RUNS: String(runs), FUZZ_SEED: seed } },
);
process.exit(result.status ?? 1);
