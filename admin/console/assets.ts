import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';

export interface ConsoleAsset {
  contentType: string;
  body: Buffer;
}

export interface ConsoleBundle {
  /** The page; it names the hashed asset files, so only it must be revalidated. */
  html: Buffer;
  htmlEtag: string;
  /** Hashed file name → content (JavaScript and CSS). */
  assets: Map<string, ConsoleAsset>;
}

const ENTRY = fileURLToPath(new URL('./ui/main.tsx', import.meta.url));
const TYPES: Record<string, string> = { '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8' };

/** A plain mark, so the browser does not ask the API for /favicon.ico. */
const ICON = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#0550ae"/><path d="M4 8h8M8 4v8" stroke="#fff" stroke-width="2"/></svg>',
);
const ICON_NAME = `icon-${createHash('sha256').update(ICON).digest('hex').slice(0, 8)}.svg`;

const page = (script: string, style: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>svc operator console</title>
<link rel="icon" href="/admin/assets/${ICON_NAME}" type="image/svg+xml">
<link rel="stylesheet" href="/admin/assets/${style}">
<script type="module" src="/admin/assets/${script}"></script>
</head>
<body>
<noscript>The operator console needs JavaScript.</noscript>
<div id="root"></div>
</body>
</html>
`;

/**
 * Bundle the console (Preact + @trpc/client) in memory with esbuild. Output names
 * carry a content hash, so the files can be cached for good and a new build is
 * picked up through the page alone.
 */
export async function buildConsole(): Promise<ConsoleBundle> {
  const result = await build({
    entryPoints: { console: ENTRY },
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    outdir: '/console',
    entryNames: '[name]-[hash]',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    logLevel: 'silent',
  });
  const assets = new Map<string, ConsoleAsset>();
  for (const file of result.outputFiles) {
    const name = file.path.slice(file.path.lastIndexOf('/') + 1);
    const ext = name.slice(name.lastIndexOf('.'));
    const contentType = TYPES[ext];
    if (contentType) assets.set(name, { contentType, body: Buffer.from(file.contents) });
  }
  const names = [...assets.keys()];
  assets.set(ICON_NAME, { contentType: 'image/svg+xml', body: ICON });
  const script = names.find((n) => n.endsWith('.js'));
  const style = names.find((n) => n.endsWith('.css'));
  if (!script || !style) throw new Error('The console bundle lacks its script or its style sheet');
  const html = Buffer.from(page(script, style));
  return { html, htmlEtag: `"${createHash('sha256').update(html).digest('base64url').slice(0, 27)}"`, assets };
}
