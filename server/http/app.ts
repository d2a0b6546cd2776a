import type { MikroORM } from '@mikro-orm/postgresql';
import { writeJsonAsText } from './json-response.js';
import express, { type Express } from 'express';
import { buildOpenApiDocument } from '../../contract/openapi.js';
import type { Config } from '../config.js';
import type { ApiKeyMac } from '../crypto/api-key-mac.js';
import type { Logger } from '../logger.js';
import { mountAdmin } from './admin.js';
import { healthRoutes } from './health.js';
import { errorEnvelope, notFound } from './middleware/error-envelope.js';
import { parseJsonBody, refuseUnsafeBody, requireJsonContentType } from './middleware/json-body.js';
import { defineRequestStorage, requestContext } from './middleware/request-context.js';
import { apiAccess, mountApi } from './router.js';
import { routeByPath } from './routing.js';
import { ADMIN_TRPC_PATH, failedAuthentications, OPENAPI_PATH } from './middleware/failed-auth-gate.js';
import { adminGate } from './middleware/admin-gate.js';
import { isAdminAuthorized } from '../../admin/context.js';
import { canonicalPath } from './middleware/canonical-path.js';
import { webhookRateLimit, type RateLimitConfig } from './middleware/rate-limit.js';
import { poolDatabase } from '../persistence/kysely.js';
import { poolUnitOfWork } from '../persistence/unit-of-work.js';
import { cachedEndpointDirectory } from '../domain/webhooks/endpoint-directory.js';
import { groupCommittedDeliveries } from '../persistence/delivery-group-commit.js';
import { poolOf } from '../persistence/orm.js';
import { coalescedRefusalNotes } from '../persistence/refusal-notes.js';
import type { LedgerRuntime } from '../integrations/ledger/runtime.js';
import { ledgerConsentRoutes } from './routes/ledger-consent.js';
import { gwaWebhookRoutes } from './routes/gwa-webhooks.js';
import { gwcWebhookRoutes } from './routes/gwc-webhooks.js';
import type { WebhookRuntime } from '../domain/webhooks/runtime.js';
import { adminRouter } from '../../admin/router.js';
import { httpRequestMetrics } from '../observability/http-metrics.js';
import { collectProcessMetrics } from '../observability/registry.js';
import { observePool } from '../observability/saturation-metrics.js';
import { metricsRoutes, type MetricsEndpoint } from './metrics.js';

export interface AppDeps {
  orm: MikroORM;
  config: Pick<
    Config,
    | 'SVC_BODY_LIMIT_BYTES'
    | 'SVC_ENVIRONMENT'
    | 'SVC_RESPONSE_VALIDATION'
    | 'SVC_AUTH_FAILURES_PER_SECOND'
    | 'SVC_AUTH_FAILURE_BURST'
    | 'SVC_AUTH_REFUSAL_HOLD_MS'
    | 'SVC_AUTH_MAX_HELD_REFUSALS'
    | 'SVC_TRUST_PROXY'
  > &
    Partial<Pick<Config, 'SVC_METRICS_TOKEN'>> &
    RateLimitConfig;
  logger: Logger;
  /** The tag of issued API keys (derived from the token key): issues keys, and tells them from made-up ones. */
  keyMac: ApiKeyMac;
  /** Bearer token of the operator surface at /admin/trpc. */
  adminToken: string;
  /** Accounting-source runtime (endpoints 14-16, consent pages); absent: those answer 500 (not configured). */
  ledger?: LedgerRuntime;
  /** gwa webhook endpoints (cipher of private keys, public URL); absent: they and their operator procedures answer 500. */
  webhooks?: WebhookRuntime;
  /** `/metrics` in a cluster's HTTP process: the aggregate's source (server/observability/cluster-metrics.ts). */
  metrics?: Pick<MetricsEndpoint, 'scrape'>;
}

/**
 * The whole HTTP application, without listening, so tests can mount it.
 * Order matters: a path not spelled canonically is refused first (400), then a client over its failed-authentication burst
 * (with its own request id; counted, not logged per request), then request id
 * (every response carries it), then logging,
 * then the content-type check (headers only), then routes, then 404 and the
 * error envelope. API routes read their body only after authentication, within
 * their own limit (`routeGuards`); the admin surface parses its body itself.
 */
export function createApp(deps: AppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  // No entity tags: answers are per request and never served conditionally, and hashing every body costs CPU (docs/decisions.md).
  app.set('etag', false);
  // Who may name the client in X-Forwarded-For (SVC_TRUST_PROXY); `req.ip` is then the one client identity (client-identity.ts).
  app.set('trust proxy', deps.config.SVC_TRUST_PROXY);
  app.set('query parser', 'simple');
  // One spelling per path: routes match only as declared (canonical-path.ts refuses other spellings first).
  app.set('case sensitive routing', true);
  // JSON answers are written as text, without Express's Buffer copy of each (json-response.ts).
  writeJsonAsText(app);

  defineRequestStorage(app, deps.orm);
  collectProcessMetrics();
  observePool(() => poolOf(deps.orm));
  const procedures = new Set(Object.keys(adminRouter._def.procedures));
  // First: a client over its failed-authentication burst costs a map lookup, not a trip through the app.
  const access = apiAccess(deps);
  const failures = failedAuthentications(
    deps.config,
    access.keys,
    deps.keyMac,
    (authorization) => isAdminAuthorized(authorization, deps.adminToken),
    deps.logger,
  );
  app.use(canonicalPath);
  app.use(failures.gate);
  app.use(requestContext(deps.logger, httpRequestMetrics(procedures)));
  app.use(
    metricsRoutes(
      { token: deps.config.SVC_METRICS_TOKEN ?? deps.adminToken, ...(deps.metrics?.scrape ? { scrape: deps.metrics.scrape } : {}) },
      (err) => deps.logger.error({ err }, 'metrics scrape failed'),
    ),
  );
  // One delivery limit per endpoint and source for both providers' webhooks (a burst the provider never sends is refused
  // with 429); deliveries refused as not the provider's count against their client like failed keys.
  const storage = poolUnitOfWork(deps.orm);
  const webhookLimit = webhookRateLimit(storage, deps.config);
  // Endpoints cached per auth epoch, read with the epoch the API's key cache reads (shared by concurrent requests).
  // Deliveries recorded at once are group-committed, as payment reports are.
  const deliveries = {
    endpoints: cachedEndpointDirectory(storage, access.reads.authEpoch),
    atOnce: groupCommittedDeliveries(poolDatabase(deps.orm)),
  };
  const refusals = coalescedRefusalNotes(poolDatabase(deps.orm), (err) => deps.logger.warn({ err }, 'webhook refusal note not written'));
  app.use(gwaWebhookRoutes(() => deps.webhooks, deps.config.SVC_RESPONSE_VALIDATION, webhookLimit, failures, deliveries));
  app.use(gwcWebhookRoutes(() => deps.webhooks, deps.config.SVC_RESPONSE_VALIDATION, webhookLimit, failures, refusals, deliveries));
  app.use(requireJsonContentType);
  // The contract's parameterless routes (every hot endpoint) are found by path from here, not after every router below.
  const api = routeByPath(app);
  app.use(api.dispatch);
  // The operator token before anything of the request is read (admin-gate.ts), then the body within its limit.
  app.use(ADMIN_TRPC_PATH, adminGate(deps.adminToken, failures), parseJsonBody(deps.config.SVC_BODY_LIMIT_BYTES), refuseUnsafeBody);

  app.use(healthRoutes(deps.orm, deps.logger));
  const openApiDocument = buildOpenApiDocument();
  app.get(OPENAPI_PATH, (_req, res) => {
    res.json(openApiDocument);
  });
  mountAdmin(app, deps);
  app.use(ledgerConsentRoutes(() => deps.ledger));
  mountApi(api.target, deps, access, failures);

  app.use(notFound);
  app.use(errorEnvelope(deps.logger));
  return app;
}
