import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { isAppRoute, type AppRouter } from '@ts-rest/core';
import { describe, expect, it } from 'vitest';
import { contract } from '../../contract/index.js';

/**
 * Every route of the contract is called through the SDK against a running
 * server somewhere in test/sdk (client, ledger, examples tests). A route added
 * to the contract without an SDK test fails here, naming it.
 */
describe('SDK test coverage of the contract', () => {
  it('when the contract gains a route, then some test/sdk file calls it as svc.<namespace>.<route>(...)', () => {
    const dir = import.meta.dirname;
    const sources = readdirSync(dir)
      .filter((f) => f.endsWith('.test.ts') && f !== 'coverage.test.ts')
      .map((f) => readFileSync(path.join(dir, f), 'utf8'))
      .join('\n');
    const routes: string[] = [];
    const walk = (router: AppRouter, prefix: string[]): void => {
      for (const [key, value] of Object.entries(router)) {
        if (isAppRoute(value)) routes.push([...prefix, key].join('.'));
        else walk(value as AppRouter, [...prefix, key]);
      }
    };
    walk(contract, []);
    expect(routes.length).toBeGreaterThan(0);
    expect(routes.filter((r) => !sources.includes(`.${r}(`))).toEqual([]);
  });
});
