import { randomUUID } from 'node:crypto';
import { benchKey, startBenchService } from './support.js';
const env = await startBenchService();
const key = await benchKey(env.orm, 'gwc', ['payments:write']);
const body = () => JSON.stringify({ eventId: randomUUID(), attemptId: randomUUID(), status: 'captured', currency: 'usd', amountMinor: 1, capturedAmountMinor: 1, refundedAmountMinor: 0, occurredAt: '2026-01-10T10:00:00Z', source: 'api' });
console.log('ready', env.url, key);
// drive load from a separate process: write url+key to a file
import { writeFileSync } from 'node:fs';
writeFileSync('/tmp/bench-target.json', JSON.stringify({ url: env.url, key }));
await new Promise((r) => setTimeout(r, 20000));
await env.close();
