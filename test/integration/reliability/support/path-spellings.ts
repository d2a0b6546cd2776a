import fc from 'fast-check';

/** One other spelling of a path, and what it changes. */
export interface Spelling {
  label: string;
  target: string;
}

const flipCase = (c: string) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase());
const encode = (c: string) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`;

/**
 * Other spellings of `path` (canonical, its parameters filled in) that a lenient router would take for the same
 * route: a static letter in another case, an absolute-form target, a percent-encoded unreserved character, a doubled
 * slash, a dot segment. `staticEnd` is where the path's first parameter starts (the part always spelled as declared).
 */
export function pathSpellings(path: string, staticEnd: number): fc.Arbitrary<Spelling> {
  const letters = [...path.slice(0, staticEnd)].flatMap((c, i) => (/[a-z]/.test(c) ? [i] : []));
  const unreserved = [...path.slice(0, staticEnd)].flatMap((c, i) => (/[A-Za-z0-9._~-]/.test(c) ? [i] : []));
  const slashes = [...path].flatMap((c, i) => (c === '/' ? [i] : []));
  const at = (i: number, insert: string, drop = 0) => path.slice(0, i) + insert + path.slice(i + drop);
  return fc.oneof(
    fc
      .subarray(letters, { minLength: 1 })
      .map((is) => ({ label: 'case', target: [...path].map((c, i) => (is.includes(i) ? flipCase(c) : c)).join('') })),
    fc
      .constantFrom('x', 'localhost', '127.0.0.1:1', 'example.test')
      .map((host) => ({ label: 'absolute form', target: `http://${host}${path}` })),
    fc.constantFrom(...unreserved).map((i) => ({ label: 'percent-encoded', target: at(i, encode(path[i]!), 1) })),
    fc.constantFrom(...slashes).map((i) => ({ label: 'doubled slash', target: at(i, '/') })),
    fc
      .tuple(fc.constantFrom(...slashes), fc.constantFrom('./', '../', 'x/../'))
      .map(([i, dots]) => ({ label: 'dot segment', target: at(i + 1, dots) })),
  );
}
