// The benches' baselines, each run on plain Node in its own process (bench/support.ts, `startBaseline`), as the
// service runs compiled: `node bench/baseline-server.mjs <kind>`, printing `baseline listening on <port>`.
// - echo: a bare Express 5 endpoint that parses a JSON body and echoes it;
// - insert: a JSON body and one single-row INSERT through BASELINE_DATABASE_URL (pool of 10, the service's default);
// - hmac-insert: the raw body, a gwc signature verified with BASELINE_SECRET (HMAC-SHA256 over "<t>.<body>",
//   constant-time compare), then the same INSERT.
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import express from 'express';
import pg from 'pg';

const kind = process.argv[2];
const app = express();
let pool;
if (kind === 'insert' || kind === 'hmac-insert') {
  pool = new pg.Pool({ connectionString: process.env.BASELINE_DATABASE_URL, max: 10 });
  await pool.query(
    'create table if not exists bench_baseline (id uuid primary key, body jsonb not null, created_at timestamptz not null default now())',
  );
}

if (kind === 'echo') {
  app.use(express.json({ limit: '1mb' }));
  app.post('/', (req, res) => {
    res.json(req.body);
  });
} else if (kind === 'insert') {
  app.use(express.json());
  app.post('/', async (req, res) => {
    await pool.query('insert into bench_baseline (id, body) values ($1, $2)', [randomUUID(), req.body]);
    res.json({ ok: true });
  });
} else if (kind === 'hmac-insert') {
  const secret = process.env.BASELINE_SECRET;
  app.use(express.raw({ type: () => true, limit: 64 * 1024 }));
  app.post('/', async (req, res) => {
    const header = String(req.headers['gwc-signature'] ?? '');
    const t = /t=(\d+)/.exec(header)?.[1] ?? '';
    const v1 = Buffer.from(/v1=([0-9a-f]{64})/.exec(header)?.[1] ?? '', 'hex');
    const expected = createHmac('sha256', secret).update(`${t}.`).update(req.body).digest();
    if (v1.length !== expected.length || !timingSafeEqual(v1, expected)) {
      res.status(400).json({ ok: false });
      return;
    }
    await pool.query('insert into bench_baseline (id, body) values ($1, $2)', [randomUUID(), req.body.toString('utf8')]);
    res.json({ ok: true });
  });
} else {
  console.error('usage: node bench/baseline-server.mjs echo|insert|hmac-insert');
  process.exit(64);
}

const server = app.listen(0, '127.0.0.1', () => {
  process.stdout.write(`baseline listening on ${server.address().port}\n`);
});
process.on('SIGTERM', () => {
  server.close();
  server.closeAllConnections();
  void pool?.end();
});
