/** `npm run openapi`: regenerate the committed openapi.json from the contract. */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { serializeOpenApi } from './openapi.js';

const target = fileURLToPath(new URL('../openapi.json', import.meta.url));
writeFileSync(target, serializeOpenApi());
console.log(`wrote ${target}`);
