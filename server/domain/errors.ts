import type { ErrorType, Issue } from '../../contract/common/index.js';

/**
 * A failure the service expects and can describe to the caller: it becomes the
 * error envelope with its `type`, `message` and `issues`. The HTTP status is
 * fixed by `server/http/error-status.ts` unless `status` says otherwise (400 vs
 * 422 for `validation_error`).
 */
export class DomainError extends Error {
  constructor(
    readonly type: ErrorType,
    message: string,
    readonly issues: Issue[] = [],
    readonly status?: number,
    /** Extra response headers, for example `Retry-After`. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

/** The refusal a failure is (its error type), or undefined for an unexpected failure: what the business metrics count. */
export const refusalOf = (err: unknown): { type: ErrorType } | undefined => (err instanceof DomainError ? err : undefined);
