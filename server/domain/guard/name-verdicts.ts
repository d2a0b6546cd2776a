/**
 * Property names repeat across requests (every line has the same keys), so the
 * guard's verdict on a name is remembered, within bounds that a hostile body
 * cannot stretch: only names up to 64 characters are remembered, and the cache
 * is cleared when it reaches 10,000 names or 256 KiB of name text (docs/decisions.md).
 */
const MAX_REMEMBERED_NAME_LENGTH = 64;
const MAX_REMEMBERED_NAMES = 10_000;
const MAX_REMEMBERED_CHARS = 128 * 1024; // UTF-16: 256 KiB

/** A bounded memo of a verdict that depends on a property name alone. */
export function rememberedNameVerdicts<V>(judge: (name: string) => V): { verdict(name: string): V; stats(): NameCacheStats } {
  const verdicts = new Map<string, { verdict: V }>();
  let rememberedChars = 0;
  return {
    verdict(name) {
      if (name.length > MAX_REMEMBERED_NAME_LENGTH) return judge(name);
      // One lookup: each verdict is boxed once when remembered, so an undefined verdict still reads as known.
      const known = verdicts.get(name);
      if (known !== undefined) return known.verdict;
      const verdict = judge(name);
      if (verdicts.size >= MAX_REMEMBERED_NAMES || rememberedChars + name.length > MAX_REMEMBERED_CHARS) {
        verdicts.clear();
        rememberedChars = 0;
      }
      verdicts.set(name, { verdict });
      rememberedChars += name.length;
      return verdict;
    },
    stats() {
      let longest = 0;
      for (const name of verdicts.keys()) longest = Math.max(longest, name.length);
      return { names: verdicts.size, chars: rememberedChars, longest };
    },
  };
}

export interface NameCacheStats {
  names: number;
  chars: number;
  longest: number;
}
