import type { NextFunction, Request, Response } from 'express';
import type { Config } from '../../config.js';
import type { ApiKeyMac } from '../../crypto/api-key-mac.js';
import { carriesIssuedTag, parseApiKey } from '../../domain/auth/api-key.js';
import { createFailureLimiter, type FailureLimiter } from '../../domain/auth/failure-limit.js';
import type { KeyDirectory } from '../../domain/auth/key-directory.js';
import type { Logger } from '../../logger.js';
import { authFailureMetrics } from '../../observability/business-metrics.js';
import { sendError } from './error-envelope.js';
import { REQUEST_ID_HEADER, newRequestId } from './request-id.js';
import { clientOf } from '../client-identity.js';

/** Provider deliveries: unknown endpoints and refused signatures count against the client like failed keys. */
export const WEBHOOKS_PATH = '/api/integrations/';

/** The operator surface: its failed tokens count against the client like failed keys (admin-gate.ts). */
export const ADMIN_TRPC_PATH = '/admin/trpc';

/** The one path under `/api/v1/` that needs no key; every other one is a contract route that authenticates a key. */
export const OPENAPI_PATH = '/api/v1/openapi.json';

/**
 * Whether the bearer key is one the service issued, told without a lookup: its prefix is known to this process
 * (a cached record, or the listed prefixes of the key table), or it carries the issued tag. Its verdict is still the
 * lookup's; this only decides that no made-up key's failures can refuse it.
 */
export function presentsIssuedKey(keys: KeyDirectory, mac: ApiKeyMac, authorization: string | undefined): boolean {
  const parsed = parseApiKey(/^Bearer ([^\s]+)$/.exec(authorization ?? '')?.[1] ?? '');
  return parsed !== undefined && (keys.holds?.(parsed.prefix) === true || carriesIssuedTag(parsed, mac));
}

/**
 * A blocked client's refusal is held before it is sent (`SVC_AUTH_REFUSAL_HOLD_MS`). A refusal costs
 * the socket write, HTTP parsing and garbage about as much as a third of a
 * served request (docs/performance.md, "Unknown API keys"): answered at once, a
 * flood over kept-alive connections just sends the next request. Held, each of
 * its connections carries at most one request per second. Bounded: beyond
 * `SVC_AUTH_MAX_HELD_REFUSALS` waiting answers (a flood opening a connection per request) refusals
 * go out at once, so memory stays bounded.
 */
function heldAnswers(settings: { holdMs: number; maxHeld: number }) {
  let held = 0;
  return {
    answerLater(res: Response, answer: () => void): void {
      if (settings.holdMs === 0 || held >= settings.maxHeld) return answer();
      held += 1;
      let done = false;
      const release = () => {
        if (done) return;
        done = true;
        held -= 1;
        clearTimeout(timer);
      };
      const timer = setTimeout(() => {
        release();
        if (!res.headersSent && !res.destroyed) answer();
      }, settings.holdMs);
      // A client that gives up frees its place at once.
      res.once('close', release);
    },
  };
}

export interface FailedAuthentications {
  /** Counts a failed authentication of this client (`routeGuards` calls it). */
  failed(client: string): void;
  /** The first middleware of the app: refuses a blocked client's API requests before anything else runs. */
  gate(req: Request, res: Response, next: NextFunction): void;
}

/**
 * The per-client limit on failed authentications, enforced at the front of the
 * app (docs/decisions.md, "Unknown API keys"). While a client is over its
 * burst, its API and operator (`/admin/trpc`) requests are answered 429 with Retry-After before routing,
 * logging or any key lookup, except those presenting a key the service issued
 * (`presentsIssuedKey`: no made-up key's failures can refuse a valid key, whoever
 * shares the client's address): a flood of made-up keys then costs a map lookup, one HMAC and a short write per
 * request, sent after a hold (`SVC_AUTH_REFUSAL_HOLD_MS`) that slows the flood to the pace
 * it was told to keep. Refusals are counted (`svc_auth_failure_refusals_total`) and logged
 * once per blocked period per client, not once per request: a per-request line
 * would let the flood fill the log.
 */
export function failedAuthentications(
  config: Pick<
    Config,
    'SVC_AUTH_FAILURES_PER_SECOND' | 'SVC_AUTH_FAILURE_BURST' | 'SVC_AUTH_REFUSAL_HOLD_MS' | 'SVC_AUTH_MAX_HELD_REFUSALS'
  >,
  keys: KeyDirectory,
  mac: ApiKeyMac,
  /** Whether a request carries the operator token: an operator is never refused for others' failures either. */
  operator: (authorization: string | undefined) => boolean,
  logger: Logger,
  limiter: FailureLimiter = createFailureLimiter({ perSecond: config.SVC_AUTH_FAILURES_PER_SECOND, burst: config.SVC_AUTH_FAILURE_BURST }),
): FailedAuthentications {
  const blocked = new Set<string>();
  const holds = heldAnswers({ holdMs: config.SVC_AUTH_REFUSAL_HOLD_MS, maxHeld: config.SVC_AUTH_MAX_HELD_REFUSALS });
  return {
    failed: (client) => limiter.failed(client),
    gate(req, res, next) {
      const api = req.path.startsWith('/api/v1/') && req.path !== OPENAPI_PATH;
      const admin = !api && req.path.startsWith(ADMIN_TRPC_PATH);
      // Provider webhooks: an unknown endpoint or a refused signature is a failure too (webhook-body.ts); nothing passes a block.
      if (!api && !admin && !req.path.startsWith(WEBHOOKS_PATH)) return next();
      const client = clientOf(req);
      const wait = limiter.retryAfterSeconds(client);
      if (wait === 0) {
        blocked.delete(client);
        return next();
      }
      if (api ? presentsIssuedKey(keys, mac, req.headers.authorization) : admin && operator(req.headers.authorization)) return next();
      if (!blocked.has(client)) {
        blocked.add(client);
        if (blocked.size > 10_000) blocked.clear();
        logger.warn({ client, retryAfterSeconds: wait }, 'client blocked after repeated authentication failures');
      }
      authFailureMetrics.refused();
      const answer = () => {
        res.setHeader(REQUEST_ID_HEADER, newRequestId());
        res.setHeader('Retry-After', String(wait));
        sendError(
          res,
          'rate_limited',
          `Too many failed authentications from this client (at most ${config.SVC_AUTH_FAILURES_PER_SECOND} per second, bursts up to ${config.SVC_AUTH_FAILURE_BURST}); retry after ${wait} s`,
        );
      };
      holds.answerLater(res, answer);
    },
  };
}
