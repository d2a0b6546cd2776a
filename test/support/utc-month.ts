/**
 * The current UTC calendar month as the operator figures take it (docs/evidence.md, "Months and ranges"): the
 * half-open range `[from, to)` of its instants and its `YYYY-MM` name.
 */
export function currentUtcMonth(now = new Date()): { range: { from: string; to: string }; month: string } {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const next = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  return { range: { from: start.toISOString(), to: next.toISOString() }, month: start.toISOString().slice(0, 7) };
}
