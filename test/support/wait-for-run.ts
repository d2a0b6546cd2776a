/** Anything that reads a sync run's current status: the public API, the operator procedure, the SDK, a stored row. */
export type RunReader<R> = () => Promise<R>;

/** What the sync status endpoint needs of a running service. */
interface StatusClient {
  request(path: string, init: { key: string }): Promise<{ body: any }>;
}

const finished = (run: any) => run?.state === 'succeeded' || run?.state === 'failed';

/**
 * The one wait of the suite for a sync run: read it every 100 ms until it has finished (succeeded or
 * failed) and return that reading. Either a reader of any surface, or a service, a key holder and a
 * connection id (the public status endpoint). Past `timeoutMs` it fails with the whole last reading
 * (attempts, error), not only the state, so a stuck run says why.
 */
export function waitForRun<R>(read: RunReader<R>, timeoutMs?: number): Promise<R>;
export function waitForRun(app: StatusClient, tenant: { key: string }, connectionId: string, timeoutMs?: number): Promise<any>;
export async function waitForRun(
  first: RunReader<unknown> | StatusClient,
  second?: number | { key: string },
  connectionId?: string,
  timeoutMs = 20_000,
): Promise<unknown> {
  let read: RunReader<unknown>;
  if (typeof first === 'function') {
    read = first;
    if (typeof second === 'number') timeoutMs = second;
  } else {
    const key = (second as { key: string }).key;
    read = async () => (await first.request(`/api/v1/integrations/ledger/${connectionId}/sync`, { key })).body?.data;
  }
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const run = await read();
    if (finished(run)) return run;
    if (Date.now() > deadline) throw new Error(`run not finished after ${timeoutMs} ms: ${JSON.stringify(run)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
