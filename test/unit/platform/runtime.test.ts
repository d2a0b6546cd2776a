import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const manifest = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
  engines: { node: string };
  devDependencies: Record<string, string>;
};

function atLeast(version: string, floor: string): boolean {
  const [a = [], b = []] = [version, floor].map((v) => v.replace(/^v/, '').split('.').map(Number));
  for (let i = 0; i < 3; i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) > (b[i] ?? 0);
  return true;
}

describe('runtime', () => {
  it('declares Node 22.17 as its floor and pins the Node 24 that npm scripts run on', () => {
    expect(manifest.engines.node).toBe('>=22.17.0');
    expect(manifest.devDependencies.node).toMatch(/^24\.\d+\.\d+$/);
  });

  it('runs the suite on a supported Node, never on the machine Node below the floor', () => {
    // Under `npm test` this is the pinned Node 24, or the floor itself in CI's second pass.
    expect(atLeast(process.version, '22.17.0'), process.version).toBe(true);
  });
});
