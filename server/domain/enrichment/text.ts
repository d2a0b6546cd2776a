/**
 * Text limits count Unicode code points, not UTF-16 units, so a shortened name
 * never ends in half a surrogate pair (which providers would reject or mangle).
 */

export function codePointLength(text: string): number {
  // UTF-16 length less one per surrogate pair (a lone surrogate counts once, as iteration counts it); no iterator per call.
  let length = text.length;
  for (let i = 0; i < text.length - 1; i++) {
    if (isHighSurrogate(text.charCodeAt(i)) && isLowSurrogate(text.charCodeAt(i + 1))) {
      length -= 1;
      i += 1;
    }
  }
  return length;
}

/**
 * The code-point length of `text` when it exceeds `max`, else `null`. A string never has
 * more code points than UTF-16 units, so text within `max` units is not counted at all.
 */
export function codePointsOver(text: string, max: number): number | null {
  if (text.length <= max) return null;
  const length = codePointLength(text);
  return length > max ? length : null;
}

const isHighSurrogate = (unit: number) => unit >= 0xd800 && unit <= 0xdbff;
const isLowSurrogate = (unit: number) => unit >= 0xdc00 && unit <= 0xdfff;

/** The first `max` code points of `text`. */
export function truncateCodePoints(text: string, max: number): string {
  if (text.length <= max) return text;
  return Array.from(text).slice(0, max).join('');
}

/** Shortens descriptive text (names, descriptions) to `max` code points, dropping whitespace left at the cut. */
export function shortenText(text: string, max: number): string {
  if (codePointsOver(text, max) === null) return text;
  const cut = truncateCodePoints(text, max);
  return cut.trimEnd() || cut;
}

/** Space through tilde only: what gwa accepts for PO numbers and line identifiers. */
export function isPrintableAscii(text: string): boolean {
  return PRINTABLE_ASCII.test(text);
}

// Module level: a regular-expression literal inside a function makes a new RegExp object on every call.
const PRINTABLE_ASCII = /^[\x20-\x7E]*$/;

/** The value, or `null` when absent or only whitespace: a blank value carries no fact and counts as missing. */
export function presentText(text: string | null | undefined): string | null {
  return text === null || text === undefined || text.trim() === '' ? null : text;
}
