import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { serializeOpenApi } from '../../../contract/openapi.js';

describe('openapi.json', () => {
  it('when the contract changes, then the committed openapi.json must be regenerated (npm run openapi)', () => {
    const committed = readFileSync(path.resolve(import.meta.dirname, '../../../openapi.json'), 'utf8');
    expect(committed).toBe(serializeOpenApi());
  });
});
