/**
 * `npm run bench:unknown-keys`: does a flood of made-up API keys slow down the
 * clients with valid keys? New gwc payment reports with one valid key at 32
 * connections, against the service as `npm start` runs it (two processes on one database: default failure limit, and
 * failure burst 10^9), four ways, interleaved BENCH_ROUNDS times (default 2; the best run of each in the
 * table, and the medians):
 * - alone: the baseline;
 * - during a flood: 32 more connections each sending a new random, well-formed
 *   key per request, from the same client address (so that address is blocked
 *   after its failure burst, while its cached valid key still passes), as fast
 *   as the flood's load generator can go on the same two cores;
 * - during a flood at a fixed rate, as many requests per second as the valid key
 *   alone made in that round (an attacker sending as much as all the legitimate
 *   traffic): the service's own cost of the flood, with the generator's share
 *   bounded;
 * - during the same flood with the failure limit and negative cache out of the
 *   way (failure burst 10^9): what an unknown key cost before.
 */
import { benchKey, load, printTable, settle, startDatabase, startService, type Figures } from './support.js';

const db = await startDatabase();
// One after the other: the first migrates the database (and builds dist/ when stale). SVC_AUTH_FAILURE_BURST's default.
const limited = await startService(db);
const unlimited = await startService(db, { env: { SVC_AUTH_FAILURE_BURST: '1000000000' } });
try {
  const key = await benchKey(limited, 'gwc', ['payments:write']);
  const valid = async (name: string, url: string) => {
    await settle([limited.pid, unlimited.pid]);
    return load(name, {
      url: `${url}/api/v1/gwc/payment-reports`,
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      generator: 'report:unique',
    });
  };
  const flood = (url: string, overallRate?: number) =>
    load('flood', {
      url: `${url}/api/v1/gwc/payment-reports`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      generator: 'report:unique',
      randomKeys: true,
      ...(overallRate ? { overallRate } : {}),
    } as Parameters<typeof load>[1]);
  const runs: Record<string, Figures[]> = { alone: [], flood: [], rated: [], unprotected: [] };
  const floods: Record<string, Figures[]> = { flood: [], rated: [], unprotected: [] };
  for (let round = 0; round < Number(process.env.BENCH_ROUNDS ?? 2); round++) {
    const alone = await valid('valid key alone', limited.url);
    runs.alone!.push(alone);
    const [r, fr] = await Promise.all([
      valid('valid key during a flood at its own rate', limited.url),
      flood(limited.url, alone.requestsPerSecond),
    ]);
    runs.rated!.push(r);
    floods.rated!.push(fr);
    const [a, fa] = await Promise.all([valid('valid key during an unbounded flood', limited.url), flood(limited.url)]);
    runs.flood!.push(a);
    floods.flood!.push(fa);
    const [b, fb] = await Promise.all([valid('same flood, no failure limit or negative cache', unlimited.url), flood(unlimited.url)]);
    runs.unprotected!.push(b);
    floods.unprotected!.push(fb);
  }
  const best = (xs: Figures[]) => [...xs].sort((x, y) => y.requestsPerSecond - x.requestsPerSecond)[0]!;
  const rows = [best(runs.alone!), best(runs.rated!), best(runs.flood!), best(runs.unprotected!)];
  printTable(rows, rows[0]!);
  const median = (xs: Figures[]) => [...xs].map((r) => r.requestsPerSecond).sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  for (const [name, xs] of Object.entries(runs))
    console.log(
      `${name}: valid req/s of the runs ${xs.map((r) => r.requestsPerSecond).join(', ')}; median ${median(xs)} (${Math.round((100 * median(xs)) / median(runs.alone!))} % of alone's median)`,
    );
  for (const [name, xs] of Object.entries(floods))
    console.log(
      `${name}: flood req/s ${xs.map((r) => r.requestsPerSecond).join(', ')}; generator CPU ms ${xs.map((r) => Math.round(r.generatorCpuMs)).join(', ')}; statuses ${xs.map((r) => r.statusCodes).join(' / ')}`,
    );
} finally {
  await limited.stop();
  await unlimited.stop();
  await db.stop();
}
