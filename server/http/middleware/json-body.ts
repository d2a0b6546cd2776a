import express, { type Request, type RequestHandler, type Response } from 'express';
import { DomainError } from '../../domain/errors.js';
import { findUnsafeStructure, refusalMessage } from '../../domain/guard/secrets-guard.js';

function hasBody(headers: Record<string, string | string[] | undefined>): boolean {
  return headers['transfer-encoding'] !== undefined || (headers['content-length'] !== undefined && headers['content-length'] !== '0');
}

/** The declared charset, lowercased, when the content type names one. */
function charsetOf(contentType: string | undefined): string | undefined {
  return /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType ?? '')?.[1]?.toLowerCase();
}

const COMMON_JSON_TYPES: ReadonlySet<string> = new Set([
  'application/json',
  'application/json; charset=utf-8',
  'application/json;charset=utf-8',
  'application/json; charset=UTF-8',
  'application/json;charset=UTF-8',
]);

/**
 * Bodies must be JSON in UTF-8 (RFC 8259): anything else is refused before
 * parsing (415). A body declared in another charset would otherwise be decoded
 * from it, and a client's UTF-8 bytes read as UTF-16 turn into garbage.
 */
export const requireJsonContentType: RequestHandler = (req, _res, next) => {
  if (!hasBody(req.headers)) return next();
  // The spellings nearly every client sends, accepted without parsing the media type (the checks below accept them too).
  if (COMMON_JSON_TYPES.has(req.headers['content-type'] ?? '')) return next();
  if (!req.is('application/json')) {
    next(new DomainError('unsupported_media_type', 'Request bodies must be sent as Content-Type: application/json'));
    return;
  }
  const charset = charsetOf(req.headers['content-type']);
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
    next(new DomainError('unsupported_media_type', 'The request body must be UTF-8 JSON'));
    return;
  }
  next();
};

/**
 * Strict JSON parser with a size limit; parse and size failures reach the error
 * middleware. The limit is applied while reading: buffering stops once the body
 * exceeds it (or at once when Content-Length declares more), and the rest of the
 * body is discarded unread into memory before the 413 is sent.
 */
export function parseJsonBody(limitBytes: number): RequestHandler {
  return express.json({ limit: limitBytes, strict: true, type: 'application/json' });
}

/**
 * `parseJsonBody` for use inside a middleware that has authenticated first.
 * The common case, an uncompressed body of declared length within the limit,
 * is read here directly (it is every API request, and the general parser's
 * stream plumbing and charset decoder cost more than the read); everything else
 * (compressed, chunked, over the limit) goes through the general parser, which
 * answers it as before.
 */
export function readJsonBody(req: Request, res: Response, limitBytes: number): Promise<BodyText> {
  const declared = plainDeclaredLength(req, limitBytes);
  if (declared !== undefined) return readDeclaredJson(req, declared);
  return new Promise((resolve, reject) => {
    parseJsonBody(limitBytes)(req, res, (err?: unknown) => (err ? reject(err) : resolve({ storableTextOnly: false })));
  });
}

/** What the reader knows of a body's text once it is parsed. */
export interface BodyText {
  /**
   * Every string and property name is well-formed text without NUL: the body was parsed from UTF-8 without a `\u`
   * escape (decoding UTF-8 never yields an unpaired surrogate, and JSON holds no raw NUL). False when not known.
   */
  storableTextOnly: boolean;
}

/** The declared length of an uncompressed, unchunked body within the limit; otherwise undefined. */
function plainDeclaredLength(req: Request, limitBytes: number): number | undefined {
  const { headers } = req;
  if (headers['transfer-encoding'] !== undefined) return undefined;
  const encoding = headers['content-encoding'];
  if (encoding !== undefined && encoding.toLowerCase() !== 'identity') return undefined;
  // Node's HTTP parser has already refused a malformed Content-Length.
  const length = Number(headers['content-length']);
  return Number.isSafeInteger(length) && length > 0 && length <= limitBytes ? length : undefined;
}

/** An error of the kind the general parser raises, so the error envelope answers both alike. */
function bodyError(type: 'entity.parse.failed' | 'request.aborted' | 'request.size.invalid', message: string): Error {
  return Object.assign(new Error(message), { type, status: 400, expose: true });
}

/**
 * The body of declared length, parsed. A body that arrives as one chunk (most do) is decoded from that chunk: no copy
 * into a buffer of its own, whose memory lies outside V8's heap and, allocated per request, makes V8 run full
 * collections of the whole heap far more often (docs/performance.md, "Memory outside the heap"). A body in several
 * chunks is copied into one buffer, then decoded.
 */
function readDeclaredJson(req: Request, length: number): Promise<BodyText> {
  return new Promise((resolve, reject) => {
    let single: Buffer | undefined;
    let body: Buffer | undefined;
    let received = 0;
    const finish = (err?: Error, text?: BodyText) => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('close', onClose);
      req.off('error', onClose);
      if (err) reject(err);
      else resolve(text!);
    };
    const onData = (chunk: Buffer) => {
      // Node's parser never passes more than the declared length; checked anyway, as the general parser does.
      if (received + chunk.length > length) return finish(bodyError('request.size.invalid', 'request size did not match content length'));
      if (received === 0 && chunk.length === length) single = chunk;
      else {
        if (body === undefined) body = Buffer.allocUnsafe(length);
        chunk.copy(body, received);
      }
      received += chunk.length;
    };
    const onEnd = () => {
      if (received !== length) return finish(bodyError('request.size.invalid', 'request size did not match content length'));
      try {
        const parsed = parseStrictJson((single ?? body)!);
        req.body = parsed.body;
        finish(undefined, parsed);
      } catch (err) {
        finish(err as Error);
      }
    };
    const onClose = () => finish(bodyError('request.aborted', 'request aborted'));
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('close', onClose);
    req.on('error', onClose);
  });
}

// eslint-disable-next-line no-control-regex -- JSON whitespace is these control characters
const FIRST_NON_WHITESPACE = /^[\x20\x09\x0a\x0d]*(.)/;

/**
 * UTF-8 JSON as the general parser reads it in strict mode: a leading byte-order
 * mark is dropped, and only an object or an array is a body.
 */
function parseStrictJson(bytes: Buffer): { body: unknown } & BodyText {
  const bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  const text = bytes.toString('utf8', bom ? 3 : 0);
  // As the general parser: a body that is only a byte-order mark reads as an empty object.
  if (text.length === 0) return { body: {}, storableTextOnly: true };
  const first = text[0] === '{' || text[0] === '[' ? text[0] : FIRST_NON_WHITESPACE.exec(text)?.[1];
  if (first !== '{' && first !== '[') throw bodyError('entity.parse.failed', 'The request body is not a JSON object or array');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (err) {
    throw bodyError('entity.parse.failed', (err as Error).message);
  }
  // Only a \u escape can put a NUL or an unpaired surrogate into a parsed string or name (`BodyText`).
  return { body, storableTextOnly: !text.includes('\\u') };
}

/**
 * After `parseJsonBody` on the operator surface: a body nested deeper than the
 * guard's limit, or holding text PostgreSQL cannot store, is refused (400) before
 * anything walks it (tRPC re-serializes the parsed body recursively).
 */
export const refuseUnsafeBody: RequestHandler = (req, _res, next) => {
  const issues = findUnsafeStructure(req.body);
  if (issues.length > 0) {
    next(new DomainError('validation_error', refusalMessage(issues), issues));
    return;
  }
  next();
};
