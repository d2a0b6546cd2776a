import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { requestExamples } from '../../contract/examples.js';
import { backoffDelay, createClient, parseRetryAfter, type GwcPaymentReport } from '../../sdk/src/index.js';
import { caught } from './support/caught.js';

/**
 * The retry policy against a local server that fails on purpose. Each test
 * scripts the server's answers, one per request, and counts the requests.
 */
type Step = (req: IncomingMessage, res: ServerResponse) => void;
let script: Step[] = [];
let hits: string[] = [];
let server: Server;
let baseUrl: string;

const json =
  (status: number, body: unknown, headers: Record<string, string> = {}): Step =>
  (_req, res) => {
    res.writeHead(status, {
      'content-type': 'application/json',
      'x-svc-request-id': `req_${String(hits.length).padStart(32, '0')}`,
      ...headers,
    });
    res.end(JSON.stringify(body));
  };
const envelope = (status: number, type: string) => json(status, { error: { type, message: `failed with ${status}`, issues: [] } });
const ack = json(200, {
  object: 'gwc.payment_report',
  api_version: 'v1',
  data: { id: '6f1c1f3e-8f1a-4d8e-9c55-0c2a4b9f6a11', duplicate: false },
});
const dropConnection: Step = (req) => req.socket.destroy();
const hang: Step = () => {};

beforeAll(async () => {
  server = createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    req.resume();
    req.on('end', () => (script.shift() ?? envelope(500, 'internal_error'))(req, res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
afterEach(() => {
  script = [];
  hits = [];
});

const fast = { maxAttempts: 4, baseDelayMs: 5, maxDelayMs: 20, maxRetryAfterMs: 2000 };
const client = (options: { retry?: typeof fast | false; timeoutMs?: number } = {}) =>
  createClient({ baseUrl, apiKey: 'sk_test', retry: fast, ...options });
const report = (): GwcPaymentReport => ({ ...(requestExamples.gwcReportPayment!.value as GwcPaymentReport) });
const enrichBody = requestExamples.gwcEnrichPaymentIntent!.value as never;

describe('SDK retry policy', () => {
  it('when a report gets 503 then 200, then it is retried once and succeeds', async () => {
    script = [envelope(503, 'service_unavailable'), ack];
    const res = await client().gwc.reportPayment({ body: report() });
    expect(res.status).toBe(200);
    expect(res.body.data.duplicate).toBe(false);
    expect(hits).toEqual(['POST /api/v1/gwc/payment-reports', 'POST /api/v1/gwc/payment-reports']);
  });

  it('when a report gets 429 with Retry-After, then the SDK waits at least that long before retrying', async () => {
    script = [json(429, { error: { type: 'rate_limited', message: 'slow down', issues: [] } }, { 'retry-after': '1' }), ack];
    const started = Date.now();
    const res = await client().gwc.reportPayment({ body: report() });
    expect(res.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(hits).toHaveLength(2);
  });

  it('when Retry-After exceeds maxRetryAfterMs, then the 429 is thrown without waiting', async () => {
    script = [json(429, { error: 'invitation_cooldown' }, { 'retry-after': '120' }), ack];
    const error = await caught(client().gwc.reportPayment({ body: report() }));
    expect(error).toMatchObject({ status: 429, type: 'invitation_cooldown', attempts: 1, retryable: true });
    expect(hits).toHaveLength(1);
  });

  it.each([400, 401, 403, 404, 409, 413, 422])('when a report gets %i, then it is never retried', async (status) => {
    script = [envelope(status, 'whatever'), ack];
    const error = await caught(client().gwc.reportPayment({ body: report() }));
    expect(error.status).toBe(status);
    expect(error.retryable).toBe(false);
    expect(error.attempts).toBe(1);
    expect(hits).toHaveLength(1);
  });

  it('when the connection is closed before a response, then the report is retried as a transport error', async () => {
    script = [dropConnection, ack];
    const res = await client().gwc.reportPayment({ body: report() });
    expect(res.status).toBe(200);
    expect(hits).toHaveLength(2);
  });

  it('when no response arrives within timeoutMs, then the attempt times out and the report is retried', async () => {
    script = [hang, ack];
    const res = await client({ timeoutMs: 150 }).gwc.reportPayment({ body: report() });
    expect(res.status).toBe(200);
    expect(hits).toHaveLength(2);
  });

  it('when the headers arrive but the body never completes, then the attempt times out and the report is retried', async () => {
    script = [(_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).write('{"object":'), ack];
    const res = await client({ timeoutMs: 150 }).gwc.reportPayment({ body: report() });
    expect(res.body.object).toBe('gwc.payment_report');
    expect(hits).toHaveLength(2);
  });

  it('when every attempt fails, then the retries stop at maxAttempts and the last error is thrown', async () => {
    script = [
      envelope(500, 'internal_error'),
      envelope(502, 'upstream_error'),
      envelope(503, 'service_unavailable'),
      envelope(500, 'internal_error'),
      ack,
    ];
    const error = await caught(client().gwc.reportPayment({ body: report() }));
    expect(error).toMatchObject({ status: 500, type: 'internal_error', attempts: 4 });
    expect(error.requestId).toMatch(/^req_/);
    expect(hits).toHaveLength(4);
  });

  it('when every attempt hits a closed socket, then a transport_error is thrown after maxAttempts', async () => {
    script = [dropConnection, dropConnection, dropConnection, dropConnection];
    const error = await caught(client().gwc.reportPayment({ body: report() }));
    expect(error).toMatchObject({ status: null, type: 'transport_error', attempts: 4, requestId: null, retryable: true });
  });

  it('when an inline enrichment gets 503 or a closed socket, then it is not retried implicitly (it is not idempotent)', async () => {
    script = [envelope(503, 'service_unavailable')];
    expect(await caught(client().gwc.enrichPaymentIntent({ body: enrichBody }))).toMatchObject({ status: 503, attempts: 1 });
    expect(hits).toHaveLength(1);
    hits = [];
    script = [dropConnection];
    expect(await caught(client().gwc.enrichPaymentIntent({ body: enrichBody }))).toMatchObject({ type: 'transport_error', attempts: 1 });
    expect(hits).toHaveLength(1);
  });

  it.each([
    ['503', envelope(503, 'service_unavailable')],
    ['429', envelope(429, 'rate_limited')],
    ['408', envelope(408, 'request_timeout')],
    ['a closed socket', dropConnection],
  ])('when a GET read gets %s, then it is retried implicitly (a read never changes state)', async (_name, failure) => {
    script = [failure, json(200, { object: 'invoice', api_version: 'v1', data: { id: 'inv' } })];
    const res = await client().invoices.get({ params: { invoiceId: 'inv' } });
    expect(res.body.object).toBe('invoice');
    expect(hits).toEqual(['GET /api/v1/invoices/inv', 'GET /api/v1/invoices/inv']);
  });

  it('when a GET read gets 404, or retries are turned off for it, then it is tried once', async () => {
    script = [envelope(404, 'not_found')];
    expect(await caught(client().invoices.get({ params: { invoiceId: 'inv' } }))).toMatchObject({ status: 404, attempts: 1 });
    script = [envelope(503, 'service_unavailable')];
    expect(await caught(client().ledger.getSync({ params: { connectionId: 'c' }, retry: false }))).toMatchObject({
      status: 503,
      attempts: 1,
    });
    expect(hits).toHaveLength(2);
  });

  it('when a page of listAll gets 503, then that page is retried with the same cursor and the walk goes on; a page that keeps failing throws SvcError', async () => {
    const page = (ids: string[], nextCursor: string | null) =>
      json(200, { object: 'invoice.list', api_version: 'v1', data: { invoices: ids.map((id) => ({ id })), nextCursor } });
    script = [page(['a', 'b'], 'c1'), envelope(503, 'service_unavailable'), page(['c'], null)];
    const ids: string[] = [];
    for await (const invoice of client().invoices.listAll({ query: { invoiceNumber: 'INV-1', limit: 2 } })) ids.push(invoice.id);
    expect(ids).toEqual(['a', 'b', 'c']);
    expect(hits).toEqual([
      'GET /api/v1/invoices?invoiceNumber=INV-1&limit=2',
      'GET /api/v1/invoices?invoiceNumber=INV-1&limit=2&cursor=c1',
      'GET /api/v1/invoices?invoiceNumber=INV-1&limit=2&cursor=c1',
    ]);

    hits = [];
    script = [page(['a'], 'c1'), envelope(400, 'validation_error')];
    const seen: string[] = [];
    const failed = await caught(
      (async () => {
        for await (const invoice of client().invoices.listAll()) seen.push(invoice.id);
      })(),
    );
    expect(failed).toMatchObject({ status: 400, type: 'validation_error', attempts: 1 });
    expect(seen).toEqual(['a']);
  });

  it('when the caller opts an enrichment in with retry: true, then it is retried', async () => {
    script = [envelope(503, 'service_unavailable'), json(200, { object: 'gwc.payment_intent_enrichment', api_version: 'v1', data: {} })];
    const res = await client().gwc.enrichPaymentIntent({ body: enrichBody, retry: true });
    expect(res.status).toBe(200);
    expect(hits).toHaveLength(2);
  });

  it('when retries are turned off (client or call), then a retry-safe report is tried once', async () => {
    script = [envelope(503, 'service_unavailable'), ack];
    expect(await caught(client({ retry: false }).gwc.reportPayment({ body: report() }))).toMatchObject({ status: 503, attempts: 1 });
    script = [envelope(503, 'service_unavailable'), ack];
    expect(await caught(client().gwc.reportPayment({ body: report(), retry: false }))).toMatchObject({ status: 503, attempts: 1 });
    expect(hits).toHaveLength(2);
  });

  it('when the caller aborts during back-off, then the call stops with an aborted error', async () => {
    // Retry-After holds the back-off at 5 s (a jittered delay alone may be a few ms and let the retry through first).
    script = [json(503, { error: { type: 'service_unavailable', message: 'failed with 503', issues: [] } }, { 'retry-after': '5' }), ack];
    let read!: () => void;
    const bodyRead = new Promise<void>((resolve) => (read = resolve));
    const svc = createClient({
      baseUrl,
      apiKey: 'sk_test',
      retry: fast,
      fetch: async (input, init) => {
        const res = await fetch(input, init);
        const text = res.text.bind(res);
        return Object.assign(res, {
          text: async () => {
            const body = await text();
            read();
            return body;
          },
        });
      },
    });
    const controller = new AbortController();
    const pending = svc.gwc.reportPayment({
      body: report(),
      retry: { maxAttempts: 2, maxRetryAfterMs: 10_000 },
      fetchOptions: { signal: controller.signal },
    });
    // From reading the 503's body to sleeping before the retry the SDK takes no I/O, only microtasks: an abort sent
    // on the next macrotask lands in the back-off, not in the first exchange.
    await bodyRead;
    setImmediate(() => controller.abort());
    expect(await caught(pending)).toMatchObject({ status: null, type: 'aborted', message: 'The call was aborted', attempts: 1 });
    expect(hits).toHaveLength(1);
  });
});

describe('SDK error envelopes', () => {
  it.each([
    [
      'the standard envelope',
      { error: { type: 'conflict', message: 'eventId reused', issues: [{ code: 'event_id_reused', path: 'eventId', message: 'x' }] } },
      'conflict',
      'eventId reused',
      1,
    ],
    ['a top-level string code (ledger)', { error: 'connection_not_found' }, 'connection_not_found', 'connection_not_found', 0],
    [
      'a top-level string message (ledger)',
      { error: 'Connection not found', message: 'No such connection' },
      'not_found',
      'No such connection',
      0,
    ],
    ['no JSON at all', 'Bad gateway', 'not_found', 'Bad gateway', 0],
  ])('when a 404 carries %s, then SvcError reads type, message and issues', async (_, body, type, message, issues) => {
    script = [typeof body === 'string' ? (_req, res) => res.writeHead(404, { 'content-type': 'text/plain' }).end(body) : json(404, body)];
    const error = await caught(client().gwc.reportPayment({ body: report() }));
    expect(error).toMatchObject({ status: 404, type, message });
    expect(error.issues).toHaveLength(issues);
  });
});

describe('SDK back-off arithmetic', () => {
  it('when computing back-off, then it is full jitter under an exponential, capped ceiling', () => {
    const policy = { maxAttempts: 10, baseDelayMs: 100, maxDelayMs: 1000, maxRetryAfterMs: 0 };
    expect([1, 2, 3, 4, 5].map((n) => backoffDelay(n, policy, () => 0.999999))).toEqual([99, 199, 399, 799, 999]);
    expect(backoffDelay(3, policy, () => 0)).toBe(0);
  });

  it('when Retry-After is seconds or an HTTP date, then it is read in milliseconds', () => {
    expect(parseRetryAfter('3')).toBe(3000);
    expect(parseRetryAfter(new Date(Date.UTC(2026, 0, 1, 0, 0, 10)).toUTCString(), Date.UTC(2026, 0, 1))).toBe(10_000);
    expect(parseRetryAfter(null)).toBeUndefined();
    expect(parseRetryAfter('soon')).toBeUndefined();
  });
});
