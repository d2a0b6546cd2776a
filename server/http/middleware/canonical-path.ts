import type { NextFunction, Request, Response } from 'express';
import { isAppRoute, type AppRouter } from '@ts-rest/core';
import { contract } from '../../../contract/index.js';
import { sendError } from './error-envelope.js';
import { newRequestId, REQUEST_ID_HEADER } from './request-id.js';

/** Every contract route's path up to its first parameter: the part that is always spelled as declared. */
function staticParts(router: AppRouter): string[] {
  return Object.values(router).flatMap((value) => (isAppRoute(value) ? [value.path.split(':')[0]!] : staticParts(value as AppRouter)));
}

/**
 * The lowercase beginnings of every route family. A path whose lowercase form begins with one of them must begin
 * with it as spelled: `/API/V1/invoices` and `/api/Integrations/…` are refused, while a parameter may hold capitals
 * (`/api/v1/invoices/INV-7`). Routing is case-sensitive too (app.ts), so a spelling missing here routes nowhere.
 */
const STATIC_PREFIXES = [
  ...new Set([
    ...staticParts(contract),
    '/api/',
    '/api/v1/',
    '/api/integrations/gwa/webhooks/',
    '/api/integrations/gwc/webhooks/',
    '/admin',
    '/admin/trpc/',
    '/admin/assets/',
    '/ledger/',
    '/ledger/connect/',
    '/ledger/oauth/callback',
    '/healthz',
    '/readyz',
    '/metrics',
  ]),
];

/** A percent-encoded character RFC 3986 calls unreserved: the same URL as the character itself, so never needed. */
const ENCODED_UNRESERVED = /%(?:3[0-9]|[46][1-9a-f]|[57][0-9a]|2d|2e|5f|7e)/i;
/** An empty segment (`//`) or a dot segment (`/./`, `/../`, or one at the end). */
const ODD_SEGMENT = /\/\/|\/\.\.?(?:\/|$)/;

/** Why `url` (the request target) is not the one canonical spelling of its path, or undefined when it is. */
export function nonCanonicalReason(url: string): string | undefined {
  if (!url.startsWith('/')) return 'The request target must be a path (origin form), not an absolute URL';
  const query = url.indexOf('?');
  const path = query === -1 ? url : url.slice(0, query);
  if (ODD_SEGMENT.test(path)) return 'The path must not contain empty or dot segments';
  if (ENCODED_UNRESERVED.test(path)) return 'The path must not percent-encode letters, digits or - . _ ~';
  const lower = path.toLowerCase();
  if (lower !== path && STATIC_PREFIXES.some((p) => lower.startsWith(p) && !path.startsWith(p)))
    return 'The path must be spelled in lowercase as documented';
  return undefined;
}

/**
 * The first middleware: every gate after it (the failed-authentication gate, the rate limits, the route guards)
 * and routing see one spelling of each path. Any other spelling of a route's path (other case, an absolute-form
 * target, percent-encoded letters, doubled slashes or dot segments) is refused with 400 before anything else runs:
 * no routing, no lookup and no per-request log line, so a flood of spellings costs what a refused key does
 * (docs/decisions.md, "One canonical path").
 */
export function canonicalPath(req: Request, res: Response, next: NextFunction): void {
  const reason = nonCanonicalReason(req.url);
  if (reason === undefined) return next();
  res.setHeader(REQUEST_ID_HEADER, newRequestId());
  sendError(res, 'validation_error', reason, [{ code: 'non_canonical_path', path: '', message: reason }]);
}
