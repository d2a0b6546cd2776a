import type { TsRestRequest } from '@ts-rest/express';
import type { AppRoute } from '@ts-rest/core';
import type { NextFunction, Request, Response } from 'express';
import type { RouteAccess } from '../../../contract/common/index.js';
import type { Config } from '../../config.js';
import { authenticate } from '../../domain/auth/authenticate.js';
import type { KeyDirectory } from '../../domain/auth/key-directory.js';
import { DomainError } from '../../domain/errors.js';
import { findSecrets, findSecretsInParameters, refusalMessage } from '../../domain/guard/secrets-guard.js';
import { readJsonBody, type BodyText } from './json-body.js';
import type { ApiRateLimit } from './rate-limit.js';
import type { FailedAuthentications } from './failed-auth-gate.js';
import { clientOf } from '../client-identity.js';
import type { ApiKeyMac } from '../../crypto/api-key-mac.js';
import { carriesIssuedTag, parseApiKey } from '../../domain/auth/api-key.js';

/** A key that carries the issued tag failed because it was revoked, not made up: not a failure the gate counts. */
function issuedTag(authorization: string | undefined, mac: ApiKeyMac): boolean {
  const parsed = parseApiKey(/^Bearer ([^\s]+)$/.exec(authorization ?? '')?.[1] ?? '');
  return parsed !== undefined && carriesIssuedTag(parsed, mac);
}

function routeAccess(req: Request): RouteAccess {
  const route = (req as TsRestRequest<AppRoute>).tsRestRoute;
  const access = (route?.metadata as { access?: RouteAccess } | undefined)?.access;
  // A route without an access rule is a programming error: fail closed.
  if (!access) throw new Error(`route ${route?.method} ${route?.path} declares no access rule`);
  return access;
}

/** Read the body within the route's limit; over the route's own (smaller) limit, 413 names that limit. */
async function readBody(req: Request, res: Response, access: RouteAccess, deploymentLimit: number): Promise<BodyText> {
  const routeLimit = access.maxBodyBytes !== undefined && access.maxBodyBytes < deploymentLimit ? access.maxBodyBytes : undefined;
  try {
    return await readJsonBody(req, res, routeLimit ?? deploymentLimit);
  } catch (err) {
    if (routeLimit !== undefined && (err as { type?: string }).type === 'entity.too.large') {
      throw new DomainError('payload_too_large', `The request body exceeds the limit of ${routeLimit} bytes for this endpoint`);
    }
    throw err;
  }
}

/** Whether the request has path or query parameters at all (most hot routes have neither): undefined when not. */
function parametersOf(req: Request): true | undefined {
  for (const _ in req.params) return true;
  // The query string is parsed only when the URL has one (Express parses it again on every read of req.query).
  return req.url.includes('?') ? true : undefined;
}

/**
 * Runs on every contract route before its handler and before schema
 * validation: authenticate the key against the route's access rule, then spend
 * one of the key's rate-limit tokens (429 beyond), then read and parse the body
 * within the route's limit (no body is read and nothing is decided for a
 * request that fails authentication or is limited), then reject card data,
 * credentials and bodies nested too deeply (spec: Authentication; card-data and
 * credential guard; docs/decisions.md).
 */
export function routeGuards(
  deps: {
    config: Pick<Config, 'SVC_ENVIRONMENT' | 'SVC_BODY_LIMIT_BYTES'>;
    keys: KeyDirectory;
    /** Counts this route's failed authentications; a client over its burst is refused at the front of the app. */
    failures: Pick<FailedAuthentications, 'failed'>;
    /** Tells an issued key (its tag verifies) from a made-up one: only made-up keys' failures are counted. */
    mac: ApiKeyMac;
  },
  rateLimit: ApiRateLimit,
) {
  const { failures } = deps;
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    try {
      const access = routeAccess(req);
      const options = { authorization: req.headers.authorization, access, environment: deps.config.SVC_ENVIRONMENT };
      req.auth = await authenticate(deps.keys, options).catch((err: unknown) => {
        // The client (Express derives req.ip from the trusted proxies) only for a failure to count.
        if (err instanceof DomainError && err.type === 'authentication_error' && !issuedTag(req.headers.authorization, deps.mac))
          failures.failed(clientOf(req));
        throw err;
      });
      await rateLimit.check(req.auth.apiKeyId);
      const text = await readBody(req, res, access, deps.config.SVC_BODY_LIMIT_BYTES);
      const issues = findSecrets(req.body, { storableTextKnown: text.storableTextOnly });
      // Parameters are text too: card data, credentials and text PostgreSQL cannot store are refused as in a body.
      const parameterIssues = parametersOf(req) === undefined ? [] : findSecretsInParameters({ ...req.params }, { ...req.query });
      if (parameterIssues.length > 0) issues.unshift(...parameterIssues);
      if (issues.length > 0) throw new DomainError('validation_error', refusalMessage(issues), issues);
      next();
    } catch (err) {
      next(err);
    }
  };
}
