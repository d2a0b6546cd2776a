/**
 * The load generator, in its own process so it never shares the server's
 * event loop: runs autocannon with the options given as JSON in argv[2] and
 * prints autocannon's result as JSON.
 */
import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import { bodyGenerators, signedGenerators, templateGenerators } from './bodies.js';

const options = JSON.parse(process.argv[2]!) as autocannon.Options & { generator?: string; secret?: string; randomKeys?: boolean };
const fromTemplate = options.generator ? templateGenerators[options.generator] : undefined;
const generator = fromTemplate ? fromTemplate(String(options.body)) : options.generator ? bodyGenerators[options.generator] : undefined;
// Deliveries whose header depends on the body (a signature): body and headers made together.
const signing = options.generator && options.secret ? signedGenerators[options.generator]?.(options.secret) : undefined;
const cpu = process.cpuUsage();
/** `randomKeys`: every request carries a new well-formed API key that does not exist (a flood of made-up keys). */
const randomKey = () => `Bearer svck_sandbox_${randomBytes(8).toString('hex')}_${randomBytes(32).toString('hex')}`;
const result = await autocannon({
  ...options,
  ...(generator || signing || options.randomKeys
    ? {
        requests: [
          {
            setupRequest: (request) => {
              const signed = signing?.();
              const headers = { ...request.headers, ...signed?.headers };
              if (options.randomKeys) headers.authorization = randomKey();
              return { ...request, headers, ...(signed ? { body: signed.body } : generator ? { body: generator() } : {}) };
            },
          },
        ],
      }
    : {}),
});
const used = process.cpuUsage(cpu);
// Its own CPU time, so a bench can say how much of the machine the load itself took.
process.stdout.write(JSON.stringify({ ...result, generatorCpuMs: (used.user + used.system) / 1000 }));
