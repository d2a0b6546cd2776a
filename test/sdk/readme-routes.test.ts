import { describe, expect, it } from 'vitest';
import { isAppRoute, type AppRouter } from '@ts-rest/core';
import { contract } from '../../contract/index.js';
import { readReadme, routeTable, withTable } from '../../sdk/tools/readme-routes.js';

describe('the SDK README call table', () => {
  it('when the contract changes, then sdk/README.md still shows the table generated from it (npm run sdk:readme)', () => {
    const readme = readReadme();
    expect(withTable(readme, routeTable())).toBe(readme);
  });

  it('when the table is generated, then it has one row per contract route, each with its method and path', () => {
    const routes: { name: string; method: string; path: string }[] = [];
    const walk = (router: AppRouter, prefix: string[]): void => {
      for (const [key, value] of Object.entries(router)) {
        if (isAppRoute(value)) routes.push({ name: [...prefix, key].join('.'), method: value.method, path: value.path });
        else walk(value as AppRouter, [...prefix, key]);
      }
    };
    walk(contract, []);
    const table = routeTable();
    for (const route of routes) {
      expect(table).toContain(`\`svc.${route.name}(`);
      expect(table).toContain(`\`${route.method} ${route.path.replace(/:([A-Za-z]+)/g, '{$1}')}\``);
    }
    expect(routes.map((r) => r.name)).toContain('gwc.preparePaymentFromInvoice');
  });
});
