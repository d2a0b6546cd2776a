// `npm start` / `npm run worker`: run the compiled service from dist/, building it first when it is missing or
// older than its sources (scripts/build.mjs), so `npm ci && npm start` works with Node and npm alone.
// `node scripts/start.mjs [entry]`: entry defaults to server/main (the service); server/jobs/worker is the importer.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import cluster from 'node:cluster';
import module from 'node:module';
import { build, DIST, staleReason } from './build.mjs';

// The supported floor is Node 22.17 (MikroORM 7, @sparticuz/chromium; Node 20 is past its end of
// life). `npm start` runs on the Node 24 that `npm ci` installs (the pinned `node` dev dependency),
// whatever the machine's own Node is; this refuses a direct `node scripts/start.mjs` on an older one.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 17)) {
  process.stderr.write(
    `svc needs Node 22.17 or later; this is ${process.version}. Run it as \`npm start\`: npm runs its scripts on the Node 24 that \`npm ci\` installed.\n`,
  );
  process.exit(1);
}

const entry = process.argv[2] ?? 'server/main';
// A cluster's HTTP processes re-run this file: their primary has just checked (and built).
if (cluster.isPrimary) {
  const reason = staleReason();
  if (reason) {
    process.stderr.write(`building dist/ (${reason})\n`);
    try {
      build();
    } catch (err) {
      process.stderr.write(`svc failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    }
  }
}
// Compiled code of the service's modules kept on disk (in the system's temporary folder) between starts: a restart
// skips compiling them again (about a fifth of a start's CPU). Where it cannot be written, Node runs without it.
module.enableCompileCache?.();
await import(pathToFileURL(path.join(DIST, `${entry}.js`)).href);
