import { Router, type Response } from 'express';
import type { Logger } from '../../server/logger.js';
import { buildConsole, type ConsoleBundle } from './assets.js';

/**
 * Scripts, styles and requests only from this origin; nothing inline, no frames,
 * no forms posting elsewhere. The page holds the admin token, so it is never framed
 * and sends no referrer.
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

function secure(res: Response): void {
  res.set({
    'Content-Security-Policy': CONSOLE_CSP,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'X-Frame-Options': 'DENY',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
  });
}

/**
 * The operator console at /admin/: one page and its hashed bundles, built in memory
 * on the first request (docs/decisions.md, "Operator console"). A failed build is
 * logged and answered 500, and tried again on the next request.
 */
export function consoleRoutes(logger: Logger): Router {
  let bundle: Promise<ConsoleBundle> | undefined;
  const load = () => {
    bundle ??= buildConsole().catch((err: unknown) => {
      bundle = undefined;
      throw err;
    });
    return bundle;
  };
  const failed = (res: Response, err: unknown) => {
    logger.error({ err }, 'operator console build failed');
    secure(res);
    res.status(500).type('text/plain').send('The operator console could not be built; see the service log.');
  };

  const router = Router({ strict: true, caseSensitive: true });
  router.get('/admin', (_req, res) => res.redirect(301, '/admin/'));
  router.get('/admin/', async (req, res) => {
    let built: ConsoleBundle;
    try {
      built = await load();
    } catch (err) {
      return failed(res, err);
    }
    secure(res);
    res.set({ 'Cache-Control': 'no-cache', ETag: built.htmlEtag });
    if (req.headers['if-none-match'] === built.htmlEtag) return res.status(304).end();
    res.type('text/html; charset=utf-8').send(built.html);
  });
  router.get('/admin/assets/:file', async (req, res, next) => {
    let built: ConsoleBundle;
    try {
      built = await load();
    } catch (err) {
      return failed(res, err);
    }
    const asset = built.assets.get(req.params.file);
    if (!asset) return next();
    secure(res);
    res.set({ 'Cache-Control': 'public, max-age=31536000, immutable', 'Content-Type': asset.contentType });
    res.send(asset.body);
  });
  return router;
}
