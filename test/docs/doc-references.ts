import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * What the prose docs name that a reader would look for in the tree: files and folders, npm scripts,
 * environment settings and code symbols. Each name is checked against the tree itself (files on disk,
 * `package.json` scripts, the words of every non-doc source file), so a rename or a removal that
 * leaves a doc behind fails `test/docs/doc-references.test.ts`.
 */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export type ReferenceKind = 'path' | 'script' | 'setting' | 'symbol';

export interface DocReference {
  doc: string;
  line: number;
  kind: ReferenceKind;
  name: string;
}

/** Folders never part of the tree a doc may point into (installed, built, or version control). */
const SKIPPED_DIRS = new Set(['node_modules', '.git', 'dist', '.svc', 'coverage', 'test-artifacts']);

/** The docs: the READMEs, docs/*.md and examples/*.md. */
export function docFiles(): string[] {
  const inDir = (dir: string) =>
    readdirSync(path.join(ROOT, dir))
      .filter((f) => f.endsWith('.md'))
      .map((f) => path.posix.join(dir, f));
  return ['README.md', 'sdk/README.md', ...inDir('docs'), ...inDir('examples')];
}

/** Every file and folder of the tree (relative, `/`-separated; folders end in `/`). */
export function treeEntries(dir = ''): string[] {
  return readdirSync(path.join(ROOT, dir)).flatMap((name) => {
    if (SKIPPED_DIRS.has(name)) return [];
    const rel = dir ? `${dir}/${name}` : name;
    return statSync(path.join(ROOT, rel)).isDirectory() ? [`${rel}/`, ...treeEntries(rel)] : [rel];
  });
}

/**
 * The source of the tree a symbol or setting must appear in (every file but the prose docs and the lock
 * file): its words, and the file names its string literals hold (files the service writes at run time).
 */
export function sourceNames(entries: string[]): { words: Set<string>; fileNames: Set<string> } {
  const words = new Set<string>();
  const fileNames = new Set<string>();
  for (const entry of entries) {
    if (entry.endsWith('/') || !/\.(ts|tsx|mjs|js|json|sql|yaml|yml|sh)$|^\.ci\//.test(entry)) continue;
    // The lock file names every package; this check's own tests name missing things on purpose.
    if (entry === 'package-lock.json' || entry.startsWith('test/docs/')) continue;
    const text = readFileSync(path.join(ROOT, entry), 'utf8');
    for (const [word] of text.matchAll(/[A-Za-z_$][\w$]*/g)) words.add(word);
    for (const [, name] of text.matchAll(/['"]([\w.-]+\.\w+)['"]/g)) fileNames.add(name!);
  }
  return { words, fileNames };
}

/** `.gitignore`'s patterns as tests: a doc may name what the tree ignores (build output, local state). */
export function ignoredBy(): (file: string) => boolean {
  const patterns = readFileSync(path.join(ROOT, '.gitignore'), 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => {
      const glob = l
        .replace(/\/$/, '')
        .replace(/[.+?^$()|[\]\\{}]/g, '\\$&')
        .replace(/\*/g, '[^/]*');
      return new RegExp(l.includes('/') && !l.endsWith('/') ? `^${glob}$` : `(?:^|/)${glob}(?:/|$)`);
    });
  return (file) => patterns.some((re) => re.test(file.replace(/<[^>]*>|\*/g, 'x')));
}

const TOP_DIRS = '(?:contract|server|admin|sdk|test|bench|examples|docs|scripts|\\.ci)';
/** A path into the tree written in prose: starts at a top-level folder, not inside a URL or a package name. */
const PROSE_PATH = new RegExp(`(?<![\\w@/.:-])${TOP_DIRS}/[\\w./*<>{}-]*`, 'g');
/** A root file or a bare file name in a code span (`openapi.json`, `readiness.ts`). */
const FILE_NAME = /^[\w.-]+\.(?:ts|tsx|mjs|md|json|yaml|sql|png|sh)$/;

/** `code spans` of a line, with their text. */
const codeSpans = (line: string) => [...line.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);

/** Everything a doc names, line by line. */
export function referencesIn(doc: string, text: string): DocReference[] {
  const found: DocReference[] = [];
  let fenced = false;
  text.split('\n').forEach((line, i) => {
    const at = (kind: ReferenceKind, name: string) => found.push({ doc, line: i + 1, kind, name });
    if (/^\s*```/.test(line)) fenced = !fenced;
    const spans = fenced ? [line] : codeSpans(line);

    // Paths: in prose and code alike, plus the targets of relative links and bare file names in code spans.
    for (const [p] of line.matchAll(PROSE_PATH)) at('path', trimPath(p));
    for (const [, target] of line.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (!/^(?:[a-z]+:|#)/.test(target!)) at('path', trimPath(path.posix.join(path.posix.dirname(doc), target!.split('#')[0]!)));
    }
    for (const span of spans) {
      for (const token of span.split(/[\s,()]+/)) {
        if (FILE_NAME.test(token) && !token.includes('/') && !token.startsWith('.')) at('path', token);
      }
    }

    for (const [, script] of line.matchAll(/\bnpm run ([\w:*-]+)/g)) at('script', script!);
    for (const [, script] of line.matchAll(/\bnpm (start|test)\b/g)) at('script', script!);

    for (const [setting] of line.matchAll(/\bSVC_[A-Z0-9_]*[A-Z0-9*]/g)) at('setting', setting);
    for (const span of spans) {
      // `NAME=value` in a command, or a code span that is just an environment name (`DATABASE_URL`).
      const settings = [...span.matchAll(/(?:^|\s)([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)=/g)].map((m) => m[1]!);
      if (!fenced && /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/.test(span)) settings.push(span);
      for (const setting of settings) if (!setting.startsWith('SVC_')) at('setting', setting);
    }

    if (!fenced) {
      for (const span of spans) {
        const symbol = symbolOf(span);
        if (symbol) at('symbol', symbol);
      }
    }
  });
  return found;
}

/** `a/b.ts:12`, `a/b.ts,` → `a/b.ts`. */
const trimPath = (p: string) => p.replace(/:\d+$/, '').replace(/[.,;:]+$/, '');

/**
 * The code symbol a code span names, if it is one: a call (`readinessOf(...)`, `svc.gwa.enrich()`) or a
 * mixed-case identifier (`listInvoices`, `SvcError`, `svc.invoices.list` → `list` only as a call). Wire
 * field names in mixed case are symbols too: the contract declares them.
 */
export function symbolOf(span: string): string | undefined {
  const m = /^(?:await |new )?((?:[A-Za-z_$][\w$]*\.)*)([A-Za-z_$][\w$]*)(\(.*\))?$/.exec(span.trim());
  if (!m) return undefined;
  const name = m[2]!;
  const called = m[3] !== undefined;
  const mixedCase = /[a-z]/.test(name) && /[A-Z]/.test(name) && !/_/.test(name);
  return called || mixedCase ? name : undefined;
}

/** Whether a path a doc names exists: exactly, as a glob (`*`, `<area>`, `{a,b}`), or — a bare file name — anywhere. */
export function pathExists(name: string, entries: string[]): boolean {
  const wanted = name.replace(/^\.\//, '');
  if (!/[*<{]/.test(wanted)) {
    if (existsSync(path.join(ROOT, wanted))) return true;
    if (!wanted.includes('/')) return entries.some((e) => e === wanted || e.endsWith(`/${wanted}`));
    return false;
  }
  const pattern = wanted
    .replace(/[.+?^$()|[\]\\]/g, '\\$&')
    .replace(/<[^>]*>|\*/g, '[^/]*')
    .replace(/\{([^}]*)\}/g, (_, alts: string) => `(?:${alts.split(',').join('|')})`);
  const re = new RegExp(`^${pattern}/?$`);
  return entries.some((e) => re.test(e));
}

/** npm scripts: the root package's, and the SDK package's for the SDK's own README. */
export function scriptNames(): { root: Set<string>; sdk: Set<string> } {
  const scripts = (file: string) =>
    new Set(Object.keys((JSON.parse(readFileSync(path.join(ROOT, file), 'utf8')) as { scripts: object }).scripts));
  return { root: scripts('package.json'), sdk: scripts('sdk/package.json') };
}

/**
 * Names the docs quote from outside the tree by design: fields of the providers' own APIs that the service
 * deliberately does not read or send (docs/provider-facts.md), and settings a library reads itself.
 */
export const EXTERNAL_NAMES = new Set([
  // gwa (Braintree) sale and line-item keys the enrichment does not fill.
  'taxExempt',
  'shippingTaxAmount',
  'upcCode',
  'upcType',
  'imageUrl',
  // Accounting-source fields the mapper does not read: line discounts and an unconfirmed PO field.
  'DiscountAmt',
  'DiscountRate',
  'PONumber',
  // Standard settings the OpenTelemetry SDK reads itself (docs/operations.md, "Traces").
  'OTEL_EXPORTER_OTLP_HEADERS',
  'OTEL_TRACES_SAMPLER',
]);

/** A check of one doc's text against the tree as it is on disk: the names it gives that the tree does not have. */
export function referenceChecker(): (doc: string, text: string) => DocReference[] {
  const entries = treeEntries();
  const { words, fileNames } = sourceNames(entries);
  const ignored = ignoredBy();
  const scripts = scriptNames();
  const named = (name: string, names: Iterable<string>) =>
    name.endsWith('*') ? [...names].some((n) => n.startsWith(name.slice(0, -1))) : new Set(names).has(name);
  const exists = (ref: DocReference): boolean => {
    switch (ref.kind) {
      case 'path':
        return pathExists(ref.name, entries) || fileNames.has(ref.name) || ignored(ref.name);
      case 'script':
        return named(ref.name, scripts.root) || (ref.doc.startsWith('sdk/') && named(ref.name, scripts.sdk));
      case 'setting':
        return named(ref.name, words) || EXTERNAL_NAMES.has(ref.name);
      case 'symbol':
        return words.has(ref.name) || EXTERNAL_NAMES.has(ref.name);
    }
  };
  return (doc, text) => referencesIn(doc, text).filter((ref) => !exists(ref));
}

/** Every name the docs give that the tree does not have. */
export function missingReferences(): DocReference[] {
  const missing = referenceChecker();
  return docFiles().flatMap((doc) => missing(doc, readFileSync(path.join(ROOT, doc), 'utf8')));
}
