import {
  initClient,
  isAppRoute,
  type ApiFetcherArgs,
  type AppRoute,
  type AppRouter,
  type AreAllPropertiesOptional,
  type ClientInferResponses,
  type PartialClientInferRequest,
  type Prettify,
  type SuccessfulHttpStatusCode,
} from '@ts-rest/core';
import { contract, type Contract } from '../../contract/index.js';
import { SvcError, isRetryableStatus } from './errors.js';
import {
  DEFAULT_RETRY_POLICY,
  backoffDelay,
  isRetrySafeRequest,
  parseRetryAfter,
  resolvePolicy,
  sleep,
  type RetryOption,
  type RetryPolicy,
} from './retry.js';
import { listAllPages, type InvoicesHelpers } from './pagination.js';

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

export interface ClientOptions {
  /** Where the service runs, for example `https://svc.example.com` (no `/api/v1`: the contract adds it). */
  baseUrl: string;
  /** A secret API key; use it only from a trusted server. */
  apiKey: string;
  /** A fetch implementation; defaults to the global `fetch`. */
  fetch?: FetchLike;
  /** Bounds of the implicit retries of retry-safe calls; `false` turns them off. */
  retry?: Partial<RetryPolicy> | false;
  /** Per-attempt timeout in milliseconds (default 30000); a timeout is a transport error. */
  timeoutMs?: number;
}

/** What the SDK adds to each call's arguments. */
interface CallExtras {
  /**
   * Retries are implicit only for GET reads and for calls that carry an
   * idempotency key or an event id. `true` (or policy bounds) opts any other
   * call in, `false` opts out.
   */
  retry?: RetryOption;
}
type SdkFetcher = (args: ApiFetcherArgs & CallExtras) => Promise<RawResponse>;
type SdkClientArgs = { baseUrl: string; baseHeaders: Record<string, string>; api: SdkFetcher };
interface RawResponse {
  status: number;
  body: unknown;
  headers: Headers;
  attempts: number;
}

/** A successful call: the typed status and body, the headers, and the response's `x-svc-request-id`. */
export type SvcResponse<R extends AppRoute> = ClientInferResponses<R, SuccessfulHttpStatusCode, 'force'> & {
  /** `x-svc-request-id`; for an inline enrichment, the `enrichmentRequestId` to report. */
  requestId: string | null;
};
export type RouteArgs<R extends AppRoute> = Prettify<PartialClientInferRequest<R, SdkClientArgs>>;
export type RouteCall<R extends AppRoute> =
  AreAllPropertiesOptional<RouteArgs<R>> extends true
    ? (args?: RouteArgs<R>) => Promise<SvcResponse<R>>
    : (args: RouteArgs<R>) => Promise<SvcResponse<R>>;
export type RouterClient<T extends AppRouter> = {
  [K in keyof T]: T[K] extends AppRoute ? RouteCall<T[K]> : T[K] extends AppRouter ? RouterClient<T[K]> : never;
};

/** Namespaces every client has, even before the contract declares routes for them (then they are empty). */
export const RESOURCE_NAMESPACES = ['gwa', 'gwb', 'gwc', 'invoices', 'ledger'] as const;
type ResourceNamespace = (typeof RESOURCE_NAMESPACES)[number];

export type SvcClient = RouterClient<Contract> & { invoices: InvoicesHelpers } & {
  [K in Exclude<ResourceNamespace, keyof Contract>]: Record<never, never>;
};

const DEFAULT_TIMEOUT_MS = 30_000;

/**
 * A typed client of every route of the contract, one namespace per resource
 * (`client.gwc.enrichPaymentIntent({ body })`). A call resolves with the success
 * response and throws `SvcError` for anything else.
 */
export function createClient(options: ClientOptions): SvcClient {
  if (!options.baseUrl) throw new TypeError('createClient: baseUrl is required');
  if (!options.apiKey) throw new TypeError('createClient: apiKey is required');
  const fetcher = createFetcher(options);
  const raw = initClient(contract, {
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    baseHeaders: { authorization: `Bearer ${options.apiKey}`, accept: 'application/json' },
    api: fetcher,
    jsonQuery: false,
    validateResponse: false,
    throwOnUnknownStatus: false,
  });
  const client = wrapRouter(contract, raw as unknown as RawRouter) as Record<string, unknown>;
  for (const name of RESOURCE_NAMESPACES) client[name] ??= {};
  const svc = client as SvcClient;
  svc.invoices.listAll = (args) => listAllPages(svc.invoices.list, args);
  return svc;
}

type RawRouter = { [key: string]: RawRouter | ((args?: unknown) => Promise<RawResponse>) };

function wrapRouter(router: AppRouter, raw: RawRouter): unknown {
  return Object.fromEntries(
    Object.entries(router).map(([key, value]) => {
      const inner = raw[key]!;
      if (!isAppRoute(value)) return [key, wrapRouter(value as AppRouter, inner as RawRouter)];
      const call = inner as (args?: unknown) => Promise<RawResponse>;
      return [key, async (args?: unknown) => toResult(await call(args))];
    }),
  );
}

function toResult(res: RawResponse): unknown {
  if (res.status >= 200 && res.status < 300) {
    return { status: res.status, body: res.body, headers: res.headers, requestId: res.headers.get('x-svc-request-id') };
  }
  throw SvcError.fromResponse(res.status, res.body, res.headers, res.attempts);
}

function createFetcher(options: ClientOptions): SdkFetcher {
  const doFetch: FetchLike = options.fetch ?? ((input, init) => fetch(input, init));
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const basePolicy: RetryPolicy | false = options.retry === false ? false : { ...DEFAULT_RETRY_POLICY, ...options.retry };

  return async (args) => {
    // Implicit retries only for retry-safe calls; an explicit per-call option decides otherwise.
    const implicit = isRetrySafeRequest(args.method, args.rawBody) ? basePolicy : false;
    const policy = args.retry === undefined ? implicit : resolvePolicy(basePolicy, args.retry);
    const maxAttempts = policy === false ? 1 : Math.max(1, policy.maxAttempts);
    const callerSignal = args.fetchOptions?.signal ?? null;

    for (let attempt = 1; ; attempt++) {
      let delayMs: number;
      try {
        const { res, body } = await fetchOnce(doFetch, args, timeoutMs, callerSignal);
        const outcome = { status: res.status, body, headers: res.headers, attempts: attempt };
        if (policy === false || attempt >= maxAttempts || !isRetryableStatus(res.status)) return outcome;
        const retryAfter = parseRetryAfter(res.headers.get('retry-after'));
        if (retryAfter !== undefined && retryAfter > policy.maxRetryAfterMs) return outcome;
        delayMs = Math.max(retryAfter ?? 0, backoffDelay(attempt, policy));
      } catch (err) {
        const error = err instanceof SvcError ? err : transportError(err, attempt);
        if (error.type === 'aborted' || policy === false || attempt >= maxAttempts) throw withAttempts(error, attempt);
        delayMs = backoffDelay(attempt, policy);
      }
      await sleep(delayMs, callerSignal).catch((reason: unknown) => {
        throw new SvcError({ status: null, type: 'aborted', message: 'The call was aborted', cause: reason, attempts: attempt });
      });
    }
  };
}

/** One attempt; the timeout covers the whole exchange, body included. */
async function fetchOnce(
  doFetch: FetchLike,
  args: ApiFetcherArgs,
  timeoutMs: number,
  callerSignal: AbortSignal | null,
): Promise<{ res: Response; body: unknown }> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const onAbort = () => controller.abort(callerSignal?.reason);
  if (callerSignal?.aborted) onAbort();
  callerSignal?.addEventListener('abort', onAbort, { once: true });
  try {
    const { signal: _ignored, ...fetchOptions } = args.fetchOptions ?? {};
    const res = await doFetch(args.path, {
      ...(fetchOptions as RequestInit),
      method: args.method,
      headers: args.headers,
      body: args.body ?? null,
      signal: controller.signal,
    });
    return { res, body: await readBody(res) };
  } catch (err) {
    if (callerSignal?.aborted) throw new SvcError({ status: null, type: 'aborted', message: 'The call was aborted', cause: err });
    if (timedOut) throw new SvcError({ status: null, type: 'timeout', message: `No response within ${timeoutMs} ms`, cause: err });
    throw err;
  } finally {
    clearTimeout(timer);
    callerSignal?.removeEventListener('abort', onAbort);
  }
}

async function readBody(res: Response): Promise<unknown> {
  const text = await res.text();
  if (!text) return undefined;
  if ((res.headers.get('content-type') ?? '').includes('json')) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

function transportError(err: unknown, attempt: number): SvcError {
  const message = err instanceof Error ? err.message : String(err);
  return new SvcError({
    status: null,
    type: 'transport_error',
    message: `The request failed before a response arrived: ${message}`,
    cause: err,
    attempts: attempt,
  });
}

function withAttempts(error: SvcError, attempts: number): SvcError {
  if (error.attempts === attempts) return error;
  return new SvcError({
    status: error.status,
    type: error.type,
    message: error.message,
    issues: error.issues,
    requestId: error.requestId,
    body: error.body,
    ...(error.headers ? { headers: error.headers } : {}),
    attempts,
    cause: error.cause,
  });
}
