/**
 * Reading provider-shaped JSON (docs: accounting source entity shapes in
 * docs/decisions.md, "Stored invoices: mapping and readiness"). Records arrive as
 * parsed JSON, so every field is `unknown` until checked; nothing here throws.
 */
export type SourceRecord = Readonly<Record<string, unknown>>;

export function record(value: unknown): SourceRecord | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as SourceRecord) : null;
}

export function records(value: unknown): SourceRecord[] {
  return Array.isArray(value) ? value.map(record).filter((r): r is SourceRecord => r !== null) : [];
}

/** A string field, or `null` when absent, not a string, or blank. */
export function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

/** `Ref {value, name}` objects of the provider (ItemRef, CurrencyRef, ...). */
export function refValue(value: unknown): string | null {
  return text(record(value)?.value);
}

export function refName(value: unknown): string | null {
  return text(record(value)?.name);
}

/** A provider date (`YYYY-MM-DD`) as midnight UTC, or `null`. */
export function dateAsTimestamp(value: unknown): string | null {
  const date = text(value);
  if (date === null || !/^\d{4}-\d{2}-\d{2}$/.test(date)) return null;
  const parsed = new Date(`${date}T00:00:00.000Z`);
  if (Number.isNaN(parsed.getTime())) return null;
  const iso = parsed.toISOString();
  return iso.slice(0, 10) === date ? iso : null;
}

/** A provider datetime with offset (`2024-01-05T10:00:00-07:00`) in UTC with milliseconds, or `null`. */
export function dateTimeAsTimestamp(value: unknown): string | null {
  const stamp = text(value);
  if (stamp === null || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(stamp)) return null;
  const parsed = new Date(stamp);
  return Number.isNaN(parsed.getTime()) ? null : parsed.toISOString();
}

/**
 * Fields the provider assigns to link records (an entity's or line's `Id`, `SyncToken`, a custom field's
 * `DefinitionId`, the `value` of a `…Ref`): identifiers, never text a person typed, so the import keeps them as
 * they are when it removes card numbers (a `…Ref`'s `name` and a memo's `value` are text and are scanned).
 */
export function isProviderIdentifier(key: string, parent: string | number | undefined): boolean {
  if (key === 'Id' || key === 'SyncToken' || key === 'DefinitionId') return true;
  return key === 'value' && typeof parent === 'string' && parent.endsWith('Ref');
}
