/**
 * Child process for the token-key race test: says it is ready, then blocks on stdin until the test writes to it
 * (every child at once), so several processes resolve the key at the same moment without spinning on the clock.
 */
import { readSync } from 'node:fs';
import { resolveTokenKey } from '../../server/crypto/token-cipher.js';

const [dir] = process.argv.slice(2) as [string];
process.stdout.write('ready\n');
const go = Buffer.alloc(1);
for (;;) {
  try {
    if (readSync(0, go) > 0) break;
  } catch (err) {
    // A non-blocking stdin answers EAGAIN until the byte arrives.
    if ((err as NodeJS.ErrnoException).code !== 'EAGAIN') throw err;
  }
}
process.stdout.write(resolveTokenKey(undefined, dir).toString('base64'));
