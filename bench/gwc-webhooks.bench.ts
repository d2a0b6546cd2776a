/**
 * `npm run bench:gwc-webhooks`: sustained gwc event deliveries at 32 connections, each a new signed
 * `payment_intent.succeeded` for a new PaymentIntent (endpoint check, signature on the raw bytes, event row,
 * provider-verified observation and payment projection, one transaction), against a baseline measured in the same
 * run: a bare Express 5 endpoint that reads the raw body, verifies the same signature (HMAC-SHA256, constant-time
 * compare) and does one single-row INSERT through the same PostgreSQL. Each path is warmed up for 2 s first. The
 * figure is informative (docs/performance.md, "gwc event deliveries").
 */
import express from 'express';
import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import pg from 'pg';
import { listen } from '../server/http/lifecycle.js';
import { createEndpoint } from '../server/domain/gwa-webhooks/endpoints.js';
import { createAdminCaller } from '../admin/router.js';
import { BENCH_KEY_MAC, load, printTable, startBenchService } from './support.js';

const env = await startBenchService();
try {
  const secret = `whsec_${randomBytes(24).toString('base64url')}`;
  const admin = createAdminCaller({ orm: env.orm, authorized: true, keyMac: BENCH_KEY_MAC });
  const organization = await admin.organizations.create({ name: 'Bench gwc webhooks' });
  const integration = await admin.integrations.create({ organizationId: organization.id, provider: 'gwc', environment: 'sandbox' });
  const endpoint = await createEndpoint(env.orm.em.fork(), env.webhooks, { integrationId: integration.id, signingSecret: secret });

  // Baseline: same database, same pool size, the same signature check and one INSERT per request.
  const pool = new pg.Pool({ connectionString: env.databaseUrl, max: 10 });
  await pool.query(
    'create table if not exists bench_baseline (id uuid primary key, body jsonb not null, created_at timestamptz not null default now())',
  );
  const bare = express();
  bare.use(express.raw({ type: () => true, limit: 64 * 1024 }));
  bare.post('/verify-insert', async (req, res) => {
    const header = String(req.headers['gwc-signature'] ?? '');
    const t = /t=(\d+)/.exec(header)?.[1] ?? '';
    const v1 = Buffer.from(/v1=([0-9a-f]{64})/.exec(header)?.[1] ?? '', 'hex');
    const expected = createHmac('sha256', secret)
      .update(`${t}.`)
      .update(req.body as Buffer)
      .digest();
    if (v1.length !== expected.length || !timingSafeEqual(v1, expected)) {
      res.status(400).json({ ok: false });
      return;
    }
    await pool.query('insert into bench_baseline (id, body) values ($1, $2)', [randomUUID(), (req.body as Buffer).toString('utf8')]);
    res.json({ ok: true });
  });
  const bareServer = await listen(bare, 0, '127.0.0.1');

  const headers = { 'content-type': 'application/json' };
  const baselineTarget = { url: `http://127.0.0.1:${bareServer.port}/verify-insert`, method: 'POST' as const, headers };
  const deliveries = { url: endpoint.url, method: 'POST' as const, headers };
  const generator = { generator: 'gwc-event:unique', secret };

  await load('warm-up', { ...baselineTarget, ...generator, duration: 2 });
  await load('warm-up', { ...deliveries, ...generator, duration: 2 });
  const baseline = await load('baseline: bare Express + HMAC verify + 1 INSERT', { ...baselineTarget, ...generator });
  const service = await load('gwc deliveries (new PaymentIntent each)', { ...deliveries, ...generator });
  printTable([baseline, service], baseline);
  await bareServer.close(1000);
  await pool.end();
} finally {
  await env.close();
}
