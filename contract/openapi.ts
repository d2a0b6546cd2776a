import { generateOpenApi } from '@ts-rest/open-api';
import { contract } from './index.js';

export const API_TITLE = 'svc: invoice-backed payment enrichment and payment reporting';

/** The OpenAPI document, generated from the contract alone. */
export function buildOpenApiDocument() {
  const document = generateOpenApi(
    contract,
    {
      info: {
        title: API_TITLE,
        version: 'v1',
        description:
          'HTTP JSON API called from a merchant\'s trusted server. Every response carries `x-svc-request-id`, a diagnostic identifier.',
      },
      servers: [{ url: '/' }],
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API key issued for one provider integration.' },
        },
      },
      security: [{ bearerAuth: [] }],
    },
    {
      jsonQuery: false,
      // Leaf names repeat across resources (gwa.reportPayment, gwb.reportPayment), so
      // each route names its own unique operationId in its metadata.
      operationMapper: (operation, route) => ({
        ...operation,
        operationId: (route.metadata as { operationId?: string } | undefined)?.operationId,
      }),
    },
  );
  return document;
}

/** The exact text of the committed `openapi.json`. */
export function serializeOpenApi(): string {
  return `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`;
}
