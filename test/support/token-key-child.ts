/**
 * Child process for the token-key race test: waits until the given instant (so
 * several processes resolve the key at the same moment), then prints the key.
 */
import { resolveTokenKey } from '../../server/crypto/token-cipher.js';

const [dir, startAt] = process.argv.slice(2) as [string, string];
while (Date.now() < Number(startAt)) {
  // busy-wait: a timer would spread the processes over milliseconds
}
process.stdout.write(resolveTokenKey(undefined, dir).toString('base64'));
