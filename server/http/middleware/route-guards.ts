import type { TsRestRequest } from '@ts-rest/express';
import type { AppRoute } from '@ts-rest/core';
import type { NextFunction, Request, Response } from 'express';
import type { RouteAccess } from '../../../contract/common/index.js';
import type { Config } from '../../config.js';
import { authenticate } from '../../domain/auth/authenticate.js';
import type { KeyDirectory } from '../../domain/auth/key-directory.js';
import { DomainError } from '../../domain/errors.js';
import { findSecrets } from '../../domain/guard/secrets-guard.js';
import { readJsonBody } from './json-body.js';

function routeAccess(req: Request): RouteAccess {
  const route = (req as TsRestRequest<AppRoute>).tsRestRoute;
  const access = (route?.metadata as { access?: RouteAccess } | undefined)?.access;
  // A route without an access rule is a programming error: fail closed.
  if (!access) throw new Error(`route ${route?.method} ${route?.path} declares no access rule`);
  return access;
}

/** Read the body within the route's limit; over the route's own (smaller) limit, 413 names that limit. */
async function readBody(req: Request, res: Response, access: RouteAccess, deploymentLimit: number): Promise<void> {
  const routeLimit = access.maxBodyBytes !== undefined && access.maxBodyBytes < deploymentLimit ? access.maxBodyBytes : undefined;
  try {
    await readJsonBody(req, res, routeLimit ?? deploymentLimit);
  } catch (err) {
    if (routeLimit !== undefined && (err as { type?: string }).type === 'entity.too.large') {
      throw new DomainError('payload_too_large', `The request body exceeds the limit of ${routeLimit} bytes for this endpoint`);
    }
    throw err;
  }
}

/**
 * Runs on every contract route before its handler and before schema
 * validation: authenticate the key against the route's access rule, then read
 * and parse the body within the route's limit (no body is read for a request
 * that fails authentication), then reject card data, credentials and bodies
 * nested too deeply (spec: Authentication; card-data and credential guard;
 * docs/decisions.md).
 */
export function routeGuards(deps: { config: Pick<Config, 'SVC_ENVIRONMENT' | 'SVC_BODY_LIMIT_BYTES'>; keys: KeyDirectory }) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    try {
      const access = routeAccess(req);
      req.auth = await authenticate(deps.keys, {
        authorization: req.headers.authorization,
        access,
        environment: deps.config.SVC_ENVIRONMENT,
      });
      await readBody(req, res, access, deps.config.SVC_BODY_LIMIT_BYTES);
      const issues = findSecrets(req.body);
      if (issues.length > 0) {
        const onlyDepth = issues.every((issue) => issue.code === 'nesting_too_deep');
        const message = onlyDepth
          ? 'The request body nests objects and arrays too deeply'
          : 'The request contains card data or credentials, which this service never accepts';
        throw new DomainError('validation_error', message, issues);
      }
      next();
    } catch (err) {
      next(err);
    }
  };
}
