import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type Express, type Request, type Response } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeJsonAsText } from '../../../server/http/json-response.js';

/** One route per case; each app answers it with its own `res.json`. */
function routes(app: Express): Express {
  app.set('etag', false);
  const large = { items: Array.from({ length: 100 }, (_, i) => ({ i, name: `Item ${i} — ünïcode ✓ 🚚` })) };
  const send = (status: number, value: unknown, before?: (res: Response) => void) => (_req: Request, res: Response) => {
    before?.(res);
    res.status(status).json(value);
  };
  app.all('/large', send(200, large));
  app.all('/small', send(201, { ok: true }));
  app.all('/no-content', send(204, { ignored: true }));
  app.all('/reset', send(205, { ignored: true }));
  app.all('/not-modified', send(304, { ignored: true }));
  app.all('/error', send(400, { error: { type: 'validation_error', issues: [] } }));
  app.all(
    '/typed',
    send(200, large, (res) => res.type('application/problem+json')),
  );
  app.all(
    '/chunked',
    send(200, large, (res) => res.setHeader('Transfer-Encoding', 'chunked')),
  );
  app.all('/undefined', send(200, undefined));
  app.all('/null', send(200, null));
  app.all('/string', send(200, 'a JSON string'));
  return app;
}

async function listen(app: Express): Promise<{ port: number; close: () => Promise<void> }> {
  const server = app.listen(0);
  await new Promise((resolve) => server.once('listening', resolve));
  return { port: (server.address() as AddressInfo).port, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** The raw answer: status, headers (the date apart) and body bytes. */
function raw(port: number, method: string, path: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
    const req = httpRequest({ port, method, path, headers: { connection: 'close', ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const { date: _date, ...rest } = res.headers;
        resolve({ status: res.statusCode!, headers: rest, body: Buffer.concat(chunks).toString('base64') });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

describe('JSON answers written as text (server/http/json-response.ts)', () => {
  let ours: Awaited<ReturnType<typeof listen>>;
  let theirs: Awaited<ReturnType<typeof listen>>;
  beforeAll(async () => {
    const app = express();
    writeJsonAsText(app);
    ours = await listen(routes(app));
    theirs = await listen(routes(express()));
  });
  afterAll(async () => {
    await ours.close();
    await theirs.close();
  });

  it.each([
    ['GET', '/large', {}],
    ['POST', '/large', {}],
    ['HEAD', '/large', {}],
    ['GET', '/large', { 'if-none-match': '*' }],
    ['POST', '/small', {}],
    ['GET', '/no-content', {}],
    ['GET', '/reset', {}],
    ['GET', '/not-modified', {}],
    ['POST', '/error', {}],
    ['GET', '/typed', {}],
    ['GET', '/chunked', {}],
    ['GET', '/undefined', {}],
    ['GET', '/null', {}],
    ['GET', '/string', {}],
  ])("when %s %s %j is answered, then the bytes, status and headers are those of Express's own res.json", async (method, path, headers) => {
    const [mine, express] = await Promise.all([raw(ours.port, method, path, headers), raw(theirs.port, method, path, headers)]);
    expect(mine).toEqual(express);
  });

  it('when a large body is answered, then its length is counted in UTF-8 bytes, not characters', async () => {
    const answer = await raw(ours.port, 'GET', '/large');
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(Number(answer.headers['content-length'])).toBe(Buffer.from(answer.body, 'base64').length);
    expect(Buffer.from(answer.body, 'base64').length).toBeGreaterThan(
      JSON.stringify(JSON.parse(Buffer.from(answer.body, 'base64').toString())).length,
    );
  });
});
