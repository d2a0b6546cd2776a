import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../support/harness.js';

const randomKey = () => `svck_sandbox_${randomBytes(8).toString('hex')}_${randomBytes(32).toString('hex')}`;

describe("a blocked client's refusals are held, within a bound", () => {
  const app = useTestApp({
    SVC_AUTH_FAILURE_BURST: '1',
    SVC_AUTH_FAILURES_PER_SECOND: '1',
    SVC_AUTH_REFUSAL_HOLD_MS: '10000',
    SVC_AUTH_MAX_HELD_REFUSALS: '1',
  });

  /** A GET with a made-up key from an address of this test's own; `state` tells whether it was answered yet. */
  const send = () => {
    const state = { status: 0 };
    const req = http.request(new URL('/api/v1/invoices', app.url), {
      localAddress: '127.0.0.3',
      headers: { authorization: `Bearer ${randomKey()}` },
    });
    const answered = new Promise<number>((resolve) => {
      req.on('response', (res) => {
        res.resume();
        state.status = res.statusCode!;
        resolve(res.statusCode!);
      });
      req.on('error', () => resolve(-1));
    });
    req.end();
    return { state, answered, abort: () => req.destroy() };
  };

  it('when more refusals wait than the bound allows, then the extra ones are sent at once; a client that gives up frees its place', async () => {
    expect(await send().answered).toBe(401);
    // Blocked now (burst 1). The first refusal takes the one place and waits its 10 s hold.
    const first = send();
    // Beyond the bound: answered at once, while the first still waits.
    expect(await send().answered).toBe(429);
    expect(first.state.status).toBe(0);
    // The first client gives up: its place is free again, so the next refusal waits and the one after is sent at once.
    first.abort();
    expect(await first.answered).toBe(-1);
    // The server learns of the abort asynchronously: until it has, the next refusal is still sent at once. A refusal
    // not answered within 200 ms (well under the refill of one failure a second that would unblock the client) is held:
    // the place is free again, and this one has it.
    for (let attempt = 0; ; attempt++) {
      expect(attempt).toBeLessThan(50);
      const next = send();
      const atOnce = await Promise.race([next.answered.then(() => true), new Promise<false>((resolve) => setTimeout(resolve, 200, false))]);
      if (atOnce) {
        expect(next.state.status).toBe(429);
        await new Promise((resolve) => setTimeout(resolve, 20));
        continue;
      }
      // The one after is beyond the bound again: sent at once, while `next` still waits (on a slow machine `next` may
      // have been answered at once after all, later than 200 ms: then it was not held, and the loop goes on).
      const after = await send().answered;
      if (next.state.status !== 0) continue;
      expect(after).toBe(429);
      next.abort();
      break;
    }
  });
});
