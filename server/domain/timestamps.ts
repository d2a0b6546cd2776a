/**
 * The service's timestamp form on the wire (spec: UTC with milliseconds), from
 * a Date or from the text PostgreSQL returns for `timestamptz` through this
 * driver configuration (`2026-01-10 10:00:00.123+00`); `null` stays `null`.
 */
export function isoTimestamp(value: Date | string): string;
export function isoTimestamp(value: Date | string | null | undefined): string | null;
export function isoTimestamp(value: Date | string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  return (typeof value === 'string' ? new Date(value) : value).toISOString();
}
