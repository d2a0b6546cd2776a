/**
 * Text limits count Unicode code points, not UTF-16 units, so a shortened name
 * never ends in half a surrogate pair (which providers would reject or mangle).
 */

export function codePointLength(text: string): number {
  let length = 0;
  for (const _ of text) length += 1;
  return length;
}

/** The first `max` code points of `text`. */
export function truncateCodePoints(text: string, max: number): string {
  if (text.length <= max) return text;
  return Array.from(text).slice(0, max).join('');
}

/** Shortens descriptive text (names, descriptions) to `max` code points, dropping whitespace left at the cut. */
export function shortenText(text: string, max: number): string {
  if (codePointLength(text) <= max) return text;
  const cut = truncateCodePoints(text, max);
  return cut.trimEnd() || cut;
}

/** Space through tilde only: what gwa accepts for PO numbers and line identifiers. */
export function isPrintableAscii(text: string): boolean {
  return /^[\x20-\x7E]*$/.test(text);
}

/** The value, or `null` when absent or only whitespace: a blank value carries no fact and counts as missing. */
export function presentText(text: string | null | undefined): string | null {
  return text === null || text === undefined || text.trim() === '' ? null : text;
}
