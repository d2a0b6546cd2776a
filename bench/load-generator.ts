/**
 * The load generator, in its own process so it never shares the server's
 * event loop: runs autocannon with the options given as JSON in argv[2] and
 * prints autocannon's result as JSON.
 */
import autocannon from 'autocannon';
import { bodyGenerators, signedGenerators, templateGenerators } from './bodies.js';

const options = JSON.parse(process.argv[2]!) as autocannon.Options & { generator?: string; secret?: string };
const fromTemplate = options.generator ? templateGenerators[options.generator] : undefined;
const generator = fromTemplate ? fromTemplate(String(options.body)) : options.generator ? bodyGenerators[options.generator] : undefined;
// Deliveries whose header depends on the body (a signature): body and headers made together.
const signing = options.generator && options.secret ? signedGenerators[options.generator]?.(options.secret) : undefined;
const cpu = process.cpuUsage();
const result = await autocannon({
  ...options,
  ...(generator ? { requests: [{ setupRequest: (request) => ({ ...request, body: generator() }) }] } : {}),
  ...(signing
    ? {
        requests: [
          {
            setupRequest: (request) => {
              const { body, headers } = signing();
              return { ...request, body, headers: { ...request.headers, ...headers } };
            },
          },
        ],
      }
    : {}),
});
const used = process.cpuUsage(cpu);
// Its own CPU time, so a bench can say how much of the machine the load itself took.
process.stdout.write(JSON.stringify({ ...result, generatorCpuMs: (used.user + used.system) / 1000 }));
