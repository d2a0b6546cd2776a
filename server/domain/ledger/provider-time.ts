/**
 * A time as the accounting provider documents it in queries and `changedSince`
 * (docs/provider-facts.md §4.6): seconds precision with an explicit offset, e.g.
 * `2026-01-01T00:00:00-00:00`. The provider keeps times to the second, so
 * dropping the milliseconds loses nothing it could compare. The one formatter for
 * every time sent to the provider.
 */
export function providerDateTime(at: Date | string): string {
  const d = typeof at === 'string' ? new Date(at) : at;
  if (Number.isNaN(d.getTime())) throw new RangeError(`not a time: ${String(at).slice(0, 40)}`);
  return d.toISOString().replace(/\.\d{3}Z$/, '-00:00');
}
