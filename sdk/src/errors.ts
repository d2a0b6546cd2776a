import type { ErrorType, Issue } from '../../contract/common/index.js';

/** `error.type` values, plus the SDK's own for failures that never reached a response. */
export type SvcErrorType = ErrorType | 'transport_error' | 'timeout' | (string & {});

/** Statuses worth retrying under back-off (spec: Errors, retry guidance). Everything else needs a corrected request. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || (status >= 500 && status <= 599);
}

const TYPE_BY_STATUS: Record<number, ErrorType> = {
  400: 'validation_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  422: 'validation_error',
  429: 'rate_limited',
  500: 'internal_error',
  502: 'upstream_error',
  503: 'service_unavailable',
};

function typeForStatus(status: number): SvcErrorType {
  return TYPE_BY_STATUS[status] ?? (status >= 500 ? 'internal_error' : `http_${status}`);
}

export interface SvcErrorInit {
  status: number | null;
  type: SvcErrorType;
  message: string;
  issues?: Issue[];
  requestId?: string | null;
  body?: unknown;
  headers?: Headers;
  attempts?: number;
  cause?: unknown;
}

/**
 * The one error every SDK call throws: an HTTP error response (any envelope), a
 * transport failure or a timeout. Branch on `status` (null when no response
 * arrived) and `type`; `issues` lists every problem the service found;
 * `requestId` is the response's `x-svc-request-id` for support.
 */
export class SvcError extends Error {
  override readonly name = 'SvcError';
  /** HTTP status, or null for transport errors and timeouts. */
  readonly status: number | null;
  /** `error.type` of the envelope (or the ledger endpoints' string `error` when it is a code). */
  readonly type: SvcErrorType;
  readonly issues: Issue[];
  /** `x-svc-request-id` of the failing response, when one arrived. */
  readonly requestId: string | null;
  /** The parsed response body as received. */
  readonly body: unknown;
  readonly headers: Headers | undefined;
  /** How many attempts were made (more than 1 only for retry-safe calls). */
  readonly attempts: number;

  constructor(init: SvcErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.status = init.status;
    this.type = init.type;
    this.issues = init.issues ?? [];
    this.requestId = init.requestId ?? null;
    this.body = init.body;
    this.headers = init.headers;
    this.attempts = init.attempts ?? 1;
  }

  /** Whether the spec's retry guidance allows retrying this failure (408, 429, 5xx, transport errors). */
  get retryable(): boolean {
    return this.status === null || isRetryableStatus(this.status);
  }

  /** Build the error from an HTTP response, tolerating both error envelopes and non-JSON bodies. */
  static fromResponse(status: number, body: unknown, headers: Headers, attempts = 1): SvcError {
    const { type, message, issues } = readEnvelope(status, body);
    return new SvcError({ status, type, message, issues, requestId: headers.get('x-svc-request-id'), body, headers, attempts });
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function readIssues(value: unknown): Issue[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isRecord).map((i) => ({
    code: String(i.code ?? 'unknown'),
    path: Array.isArray(i.path) ? i.path.join('.') : String(i.path ?? ''),
    message: String(i.message ?? ''),
  }));
}

/**
 * `{error: {type, message, issues}}` (payment, enrichment, invoice endpoints) or
 * `{error: '<string>', message?}` (ledger endpoints, spec: Errors); anything else
 * falls back to the status.
 */
function readEnvelope(status: number, body: unknown): { type: SvcErrorType; message: string; issues: Issue[] } {
  if (isRecord(body) && isRecord(body.error)) {
    const e = body.error;
    return {
      type: typeof e.type === 'string' ? e.type : typeForStatus(status),
      message: typeof e.message === 'string' ? e.message : `HTTP ${status}`,
      issues: readIssues(e.issues),
    };
  }
  if (isRecord(body) && typeof body.error === 'string') {
    const isCode = /^[a-z][a-z0-9_.]*$/.test(body.error);
    return {
      type: isCode ? body.error : typeForStatus(status),
      message: typeof body.message === 'string' ? body.message : body.error,
      issues: readIssues(body.issues),
    };
  }
  return { type: typeForStatus(status), message: typeof body === 'string' && body ? body.slice(0, 500) : `HTTP ${status}`, issues: [] };
}
