import { initServer } from '@ts-rest/express';
import type { Request } from 'express';
import type { PaymentProvider } from '../../../contract/common/index.js';
import { contract } from '../../../contract/index.js';
import { ENRICHMENT_OBJECTS } from '../../../contract/inline-enrichment.js';
import type { PreparationRequest } from '../../../contract/preparations.js';
import { prepareFromInvoice, type PreparationKind } from '../../domain/preparations/prepare-from-invoice.js';
import type { PreparationStore } from '../../domain/preparations/ports.js';
import type { SnapshotChecksCache } from '../../domain/invoices/index.js';

/** Where preparations are read and saved, and the snapshot-only readiness results kept across requests. */
export interface PreparationDeps {
  store: PreparationStore;
  checks: SnapshotChecksCache;
}
import { authOf } from '../auth-of.js';

const s = initServer();

/** Errors (404, 409, 422) are DomainErrors with every issue; the envelope middleware answers them. */
const prepareHandler =
  <O extends string>(deps: PreparationDeps, provider: PaymentProvider, kind: PreparationKind, object: O) =>
  async ({ body, req }: { body: PreparationRequest; req: Request }) => {
    const result = await prepareFromInvoice(deps.store, { ctx: authOf(req), provider, kind, request: body, checks: deps.checks });
    return {
      status: 200 as const,
      body: { object, api_version: 'v1' as const, data: result.data as never, preparation: result.preparation },
    };
  };

/** Endpoints 1, 6, 11 and 12: invoice-backed preparation. */
export const preparationHandlers = (deps: PreparationDeps) => ({
  gwa: s.route(contract.gwa.enrichTransactionFromInvoice, prepareHandler(deps, 'gwa', 'enrichment', ENRICHMENT_OBJECTS.gwa)),
  gwb: s.route(contract.gwb.enrichOrderFromInvoice, prepareHandler(deps, 'gwb', 'enrichment', ENRICHMENT_OBJECTS.gwb)),
  gwc: s.route(contract.gwc.enrichPaymentIntentFromInvoice, prepareHandler(deps, 'gwc', 'enrichment', ENRICHMENT_OBJECTS.gwc)),
  gwcPreparation: s.route(
    contract.gwc.preparePaymentFromInvoice,
    prepareHandler(deps, 'gwc', 'payment_preparation', 'gwc.payment_preparation'),
  ),
});
