import type { Express, Response } from 'express';

/**
 * `res.json` for this app: Express's own, except that the body is written as the string it is. Express copies a body
 * of 1,000 characters or more into a Buffer first, to measure it (and to hash it for an entity tag, which this app has
 * none of). A Buffer's memory lies outside V8's heap; allocated for every response, it makes V8 run full collections
 * of the whole heap several times a second under load (docs/performance.md, "Memory outside the heap"). Everything else
 * is what Express's `res.send` does for a string: the content type with its charset, Content-Length (unless
 * Transfer-Encoding is set), 304 for a fresh conditional request, no body for 204, 205, 304 and HEAD. A response whose
 * content type is already set, a value without JSON text, or JSON settings on the app go to Express's own.
 */
export function writeJsonAsText(app: Express): void {
  const expressJson = app.response.json;
  app.response.json = function json(this: Response, value: unknown): Response {
    if (this.getHeader('Content-Type') !== undefined || app.get('json replacer') || app.get('json spaces') || app.get('json escape'))
      return expressJson.call(this, value);
    const body = JSON.stringify(value);
    if (body === undefined) return expressJson.call(this, value);
    // What res.set('Content-Type', 'application/json') makes of it, and res.send keeps.
    this.setHeader('Content-Type', 'application/json; charset=utf-8');
    if (this.getHeader('Transfer-Encoding') === undefined) this.setHeader('Content-Length', String(Buffer.byteLength(body, 'utf8')));
    if (this.req.fresh) this.status(304);
    const status = this.statusCode;
    if (status === 204 || status === 304) {
      this.removeHeader('Content-Type');
      this.removeHeader('Content-Length');
      this.removeHeader('Transfer-Encoding');
      this.end('');
    } else if (status === 205) {
      this.setHeader('Content-Length', '0');
      this.removeHeader('Transfer-Encoding');
      this.end('');
    } else if (this.req.method === 'HEAD') this.end();
    else this.end(body, 'utf8');
    return this;
  };
}
