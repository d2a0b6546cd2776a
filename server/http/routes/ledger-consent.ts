import { Router, type Response } from 'express';
import { completeConsent, openConnectUrl, type ConsentFailure } from '../../domain/ledger/consent.js';
import type { LedgerRuntime } from '../../integrations/ledger/runtime.js';

const MESSAGES: Record<ConsentFailure, [number, string]> = {
  unknown: [404, 'This link is not valid. Ask for a new invitation.'],
  expired: [410, 'This link has expired. Ask for a new invitation.'],
  used: [410, 'This link was already used. Ask for a new invitation if you need to connect again.'],
  denied: [400, 'Access was not approved, so nothing was connected.'],
  invalid: [400, 'The accounting provider sent an incomplete answer. Nothing was connected.'],
  realm_mismatch: [
    403,
    'The accounting provider did not confirm access to the company named in its answer. Nothing was connected; ask for a new invitation.',
  ],
  exchange_failed: [502, 'The accounting provider did not confirm the authorization. Nothing was connected; ask for a new invitation.'],
};

function page(res: Response, status: number, title: string, text: string): void {
  res
    .status(status)
    .set('cache-control', 'no-store')
    .set('referrer-policy', 'no-referrer')
    .type('html')
    .send(`<!doctype html><meta charset="utf-8"><title>${title}</title><h1>${title}</h1><p>${text}</p>`);
}

/**
 * Browser pages of the consent flow (not part of the JSON API): the invitation's
 * connect URL and the OAuth callback. Secrets in the URL are never logged (the
 * access log drops query strings; connect paths are logged without the secret).
 */
export function ledgerConsentRoutes(getRuntime: () => LedgerRuntime | undefined): Router {
  const router = Router({ caseSensitive: true });
  // Endpoint 15 accepts an empty body, read as `{}` before contract validation.
  router.post('/api/v1/integrations/ledger/:connectionId/sync', (req, _res, next) => {
    if (req.body === undefined) req.body = {};
    next();
  });
  router.get('/ledger/oauth/callback', async (req, res, next) => {
    try {
      const runtime = getRuntime();
      if (!runtime) return page(res, 500, 'Not configured', 'The accounting source is not configured on this service.');
      const q = req.query as Record<string, string | undefined>;
      const result = await completeConsent(req.storage, runtime, { state: q.state, code: q.code, realmId: q.realmId, error: q.error });
      if ('failure' in result) {
        const [status, text] = MESSAGES[result.failure];
        return page(res, status, 'Connection not completed', text);
      }
      // A consent never overrides the operator: a paused or disconnected connection keeps its status (docs/ledger-sync.md).
      if (result.status === 'paused') {
        return page(
          res,
          200,
          'Access approved',
          'Access was approved, but the service operator has paused this connection: nothing is imported until they resume it. You can close this window.',
        );
      }
      if (result.status === 'disconnected') {
        return page(
          res,
          200,
          'Access approved',
          'Access was approved, but the service operator disconnected this company: it stays disconnected until they reconnect it. You can close this window.',
        );
      }
      page(res, 200, 'Connected', 'The accounting company is connected. You can close this window.');
    } catch (err) {
      next(err);
    }
  });
  router.get('/ledger/connect/:secret', async (req, res, next) => {
    // The path holds the connect secret: the access log must only ever see it redacted.
    const secret = String(req.params.secret);
    req.originalUrl = '/ledger/connect/[redacted]';
    try {
      const runtime = getRuntime();
      if (!runtime) return page(res, 500, 'Not configured', 'The accounting source is not configured on this service.');
      const result = await openConnectUrl(req.storage, runtime, secret);
      if ('failure' in result) {
        const [status, text] = MESSAGES[result.failure];
        return page(res, status, 'Connection link not usable', text);
      }
      res.set('cache-control', 'no-store').set('referrer-policy', 'no-referrer').redirect(302, result.redirect);
    } catch (err) {
      next(err);
    }
  });
  return router;
}
