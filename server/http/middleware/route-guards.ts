import type { TsRestRequest } from '@ts-rest/express';
import type { AppRoute } from '@ts-rest/core';
import type { NextFunction, Request, Response } from 'express';
import type { RouteAccess } from '../../../contract/common/index.js';
import type { Config } from '../../config.js';
import { authenticate } from '../../domain/auth/authenticate.js';
import { DomainError } from '../../domain/errors.js';
import { findSecrets } from '../../domain/guard/secrets-guard.js';

function routeAccess(req: Request): RouteAccess {
  const route = (req as TsRestRequest<AppRoute>).tsRestRoute;
  const access = (route?.metadata as { access?: RouteAccess } | undefined)?.access;
  // A route without an access rule is a programming error: fail closed.
  if (!access) throw new Error(`route ${route?.method} ${route?.path} declares no access rule`);
  return access;
}

/**
 * Runs on every contract route before its handler and before schema
 * validation: authenticate the key against the route's access rule, enforce
 * the route's body limit, and reject card data and credentials anywhere in
 * the body (spec: Authentication; card-data and credential guard).
 */
export function routeGuards(deps: { config: Pick<Config, 'SVC_ENVIRONMENT'> }) {
  return async (req: Request, _res: Response, next: NextFunction): Promise<void> => {
    try {
      const access = routeAccess(req);
      req.auth = await authenticate(req.em, {
        authorization: req.headers.authorization,
        access,
        environment: deps.config.SVC_ENVIRONMENT,
      });
      if (access.maxBodyBytes !== undefined && (req.rawBodyLength ?? 0) > access.maxBodyBytes) {
        throw new DomainError('payload_too_large', `The request body exceeds the limit of ${access.maxBodyBytes} bytes for this endpoint`);
      }
      const secrets = findSecrets(req.body);
      if (secrets.length > 0) {
        throw new DomainError('validation_error', 'The request contains card data or credentials, which this service never accepts', secrets);
      }
      next();
    } catch (err) {
      next(err);
    }
  };
}
