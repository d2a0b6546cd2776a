/**
 * The browser of the console test: by default the Chromium that `npm ci` brings
 * in @sparticuz/chromium (a headless shell shipped brotli-compressed inside the
 * package), unpacked once per package version into a folder of its own,
 * `node_modules/.cache/chromium/<version>/`, by the global setup. CHROMIUM_PATH
 * names another browser instead (Debian's `/usr/bin/chromium`, say), launched as is.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { inflate } from '@sparticuz/chromium';

/** How to launch the browser; plain data, handed from the global setup to the test file. */
export interface BrowserLaunch {
  executablePath: string;
  /** Added to the browser's environment. */
  env: Record<string, string>;
  /** What the browser is, for error messages. */
  describe: string;
}

const ROOT = path.resolve(import.meta.dirname, '../..');
const CACHE = path.join(ROOT, 'node_modules', '.cache', 'chromium');
/** The package's archives: the browser, its fonts, SwiftShader (software GL) and the libraries it needs (NSS, NSPR, expat). */
const ARCHIVES = ['chromium.br', 'fonts.tar.br', 'swiftshader.tar.br', 'al2023.tar.br'];

export async function prepareBrowser(env: NodeJS.ProcessEnv = process.env): Promise<BrowserLaunch> {
  if (env.CHROMIUM_PATH) return { executablePath: env.CHROMIUM_PATH, env: {}, describe: `CHROMIUM_PATH ${env.CHROMIUM_PATH}` };
  const packageDir = path.resolve(path.dirname(createRequire(import.meta.url).resolve('@sparticuz/chromium')), '..');
  const { version } = JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8')) as { version: string };
  const dir = path.join(CACHE, version);
  if (!existsSync(path.join(dir, 'chromium'))) await unpack(path.join(packageDir, 'bin'), dir);
  return {
    executablePath: path.join(dir, 'chromium'),
    env: {
      // The package's own libraries first: a bare Debian has no NSS; a machine that has one keeps using the bundled build.
      LD_LIBRARY_PATH: [path.join(dir, 'al2023', 'lib'), env.LD_LIBRARY_PATH].filter(Boolean).join(':'),
      // Without a font Chromium aborts on the first page; the package's own fonts.conf names /tmp/fonts.
      FONTCONFIG_FILE: path.join(dir, 'fonts.conf'),
    },
    describe: `@sparticuz/chromium ${version} in ${path.relative(ROOT, dir)}`,
  };
}

/**
 * Unpack into a private staging folder, then rename it into place: two runs
 * unpacking at once (two vitest runs, or a nested one) must never write into a
 * binary the other is executing (ETXTBSY), and a half-written folder never
 * becomes `dir`. The loser of the rename drops its copy and uses the winner's.
 */
async function unpack(bin: string, dir: string): Promise<void> {
  mkdirSync(CACHE, { recursive: true });
  const staging = mkdtempSync(path.join(CACHE, `.unpacking-${path.basename(dir)}-`));
  try {
    // inflate() writes into os.tmpdir(), read synchronously when each call starts:
    // point TMPDIR at the staging folder for these calls only.
    const saved = process.env.TMPDIR;
    let pending: Promise<string>[];
    process.env.TMPDIR = staging;
    try {
      pending = ARCHIVES.map((name) => inflate(path.join(bin, name)));
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
    }
    await Promise.all(pending);
    writeFileSync(
      path.join(staging, 'fonts.conf'),
      `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n  <dir>${path.join(dir, 'fonts')}</dir>\n  <cachedir>${path.join(dir, 'fonts-cache')}</cachedir>\n</fontconfig>\n`,
    );
    renameSync(staging, dir);
  } catch (err) {
    rmSync(staging, { recursive: true, force: true });
    if (!existsSync(path.join(dir, 'chromium'))) throw err;
    return;
  }
  // Versions unpacked before an upgrade are of no further use (about 250 MB each).
  for (const entry of readdirSync(CACHE)) {
    if (!entry.startsWith('.') && entry !== path.basename(dir)) rmSync(path.join(CACHE, entry), { recursive: true, force: true });
  }
}
