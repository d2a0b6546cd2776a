import { randomUUID } from 'node:crypto';
import { benchKey, startBenchService } from './support.js';
import { recordPaymentReport } from '../server/domain/payment-reports/record-payment-report.js';
import { authenticate } from '../server/domain/auth/authenticate.js';
const env = await startBenchService();
const key = await benchKey(env.orm, 'gwc', ['payments:write']);
const ctx = await authenticate(env.orm.em.fork(), { authorization: `Bearer ${key}`, access: { provider: 'gwc', scopes: ['payments:write'] }, environment: 'sandbox' });
const report = () => ({ eventId: randomUUID(), attemptId: randomUUID(), status: 'captured', currency: 'usd', amountMinor: 1, capturedAmountMinor: 1, refundedAmountMinor: 0, occurredAt: '2026-01-10T10:00:00Z', source: 'api' }) as any;
for (let round = 0; round < 3; round++) {
  let t0 = performance.now();
  for (let i = 0; i < 200; i++) await authenticate(env.orm.em.fork(), { authorization: `Bearer ${key}`, access: { provider: 'gwc', scopes: ['payments:write'] }, environment: 'sandbox' });
  const auth = (performance.now() - t0) / 200;
  t0 = performance.now();
  for (let i = 0; i < 200; i++) await recordPaymentReport(env.orm.em.fork(), { ctx, provider: 'gwc', report: report(), requestId: 'req_x' });
  const rec = (performance.now() - t0) / 200;
  t0 = performance.now();
  for (let i = 0; i < 200; i++) await env.orm.em.getConnection().execute('select 1');
  const sel = (performance.now() - t0) / 200;
  t0 = performance.now();
  await Promise.all(Array.from({ length: 200 }, () => recordPaymentReport(env.orm.em.fork(), { ctx, provider: 'gwc', report: report(), requestId: 'req_x' })));
  const conc = (performance.now() - t0) / 200;
  console.log({ auth: auth.toFixed(2), rec: rec.toFixed(2), select1: sel.toFixed(2), concurrentPerReq: conc.toFixed(2) });
}
await env.close();
