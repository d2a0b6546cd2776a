/**
 * `npm run bench:evidence-property`: the interleaving property of docs/evidence.md ("Order never changes the answer")
 * over many more histories than `npm test` runs: `test/integration/evidence/order-property.test.ts` with
 * EVIDENCE_PROPERTY_HISTORIES (default 100,000, gwc and gwa: each batch a gwc world and a gwa world of 15 histories
 * each, all at once). The test prints
 * `evidence property: <histories> histories in <seconds> s, seed <seed>, failures 0`; a failure prints the seed and
 * the counterexample, and EVIDENCE_PROPERTY_SEED replays it.
 */
import { spawnSync } from 'node:child_process';

const histories = process.env.EVIDENCE_PROPERTY_HISTORIES ?? '100000';
const result = spawnSync('npx', ['vitest', 'run', 'test/integration/evidence/order-property.test.ts'], {
  stdio: 'inherit',
  env: { ...process.env, EVIDENCE_PROPERTY_HISTORIES: histories },
});
process.exit(result.status ?? 1);
