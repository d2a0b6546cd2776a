import type { ErrorType } from '../../contract/common/index.js';

/** The HTTP status of each error type (docs/errors.md). */
export const ERROR_STATUS: Record<ErrorType, number> = {
  validation_error: 400,
  authentication_error: 401,
  permission_error: 403,
  not_found: 404,
  conflict: 409,
  gone: 410,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal_error: 500,
  upstream_error: 502,
  service_unavailable: 503,
};
