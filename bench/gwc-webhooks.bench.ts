/**
 * `npm run bench:gwc-webhooks`: sustained gwc event deliveries at 32 connections against the service as `npm start`
 * runs it, each a new signed `payment_intent.succeeded` for a new PaymentIntent (endpoint check, signature on the raw
 * bytes, event row, provider-verified observation and payment projection, one transaction), compared in rounds
 * (bench/support.ts, `compareInRounds`) with a baseline in its own process: a bare Express 5 endpoint that reads the
 * raw body, verifies the same signature (HMAC-SHA256, constant-time compare) and does one single-row INSERT through
 * the same PostgreSQL. Targets: ≥ 60 % of the baseline's throughput, p99 ≤ 2 × the baseline's.
 */
import { randomBytes } from 'node:crypto';
import { compareInRounds, gwcWebhookEndpoint, startBaseline, startDatabase, startService } from './support.js';

const db = await startDatabase();
try {
  const service = await startService(db);
  const secret = `whsec_${randomBytes(24).toString('base64url')}`;
  const verify = await startBaseline('hmac-insert', { db, secret });
  try {
    const endpointUrl = await gwcWebhookEndpoint(service, secret);
    const headers = { 'content-type': 'application/json' };
    const generator = { generator: 'gwc-event:unique', secret };
    await compareInRounds(
      { name: 'bare Express + HMAC verify + 1 INSERT', options: { url: verify.url, method: 'POST', headers, ...generator } },
      [
        {
          name: 'signed gwc deliveries (a new PaymentIntent each)',
          options: { url: endpointUrl, method: 'POST', headers, ...generator },
          minShare: 0.6,
          maxP99Ratio: 2,
        },
      ],
      [service, verify],
      db,
    );
  } finally {
    await Promise.all([service.stop(), verify.stop()]);
  }
} finally {
  await db.stop();
}
