import type { Request } from 'express';

/**
 * The client a request comes from, for every per-client limit (failed authentications, webhook refusals, the
 * per-source webhook budget): the peer address, or, when the peer is a proxy `SVC_TRUST_PROXY` trusts, the address
 * it names in `X-Forwarded-For` (Express computes `req.ip` from the app's `trust proxy`). A forwarded header from a
 * peer that is not trusted is ignored, so no client can name itself someone else.
 */
export function clientOf(req: Request): string {
  return req.ip ?? req.socket.remoteAddress ?? 'unknown';
}
