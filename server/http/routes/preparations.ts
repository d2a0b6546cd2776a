import { initServer } from '@ts-rest/express';
import type { Request } from 'express';
import type { PaymentProvider } from '../../../contract/common/index.js';
import { contract } from '../../../contract/index.js';
import { ENRICHMENT_OBJECTS } from '../../../contract/inline-enrichment.js';
import type { PreparationRequest } from '../../../contract/preparations.js';
import { prepareFromInvoice, type PreparationKind } from '../../domain/preparations/prepare-from-invoice.js';
import type { PreparationStore } from '../../domain/preparations/preparation-store.js';
import { authOf } from '../auth-of.js';

const s = initServer();

/** Errors (404, 409, 422) are DomainErrors with every issue; the envelope middleware answers them. */
const prepareHandler =
  <O extends string>(store: PreparationStore, provider: PaymentProvider, kind: PreparationKind, object: O) =>
  async ({ body, req }: { body: PreparationRequest; req: Request }) => {
    const result = await prepareFromInvoice(store, { ctx: authOf(req), provider, kind, request: body });
    return {
      status: 200 as const,
      body: { object, api_version: 'v1' as const, data: result.data as never, preparation: result.preparation },
    };
  };

/** Endpoints 1, 6, 11 and 12: invoice-backed preparation. */
export const preparationHandlers = (store: PreparationStore) => ({
  gwa: s.route(contract.gwa.enrichTransactionFromInvoice, prepareHandler(store, 'gwa', 'enrichment', ENRICHMENT_OBJECTS.gwa)),
  gwb: s.route(contract.gwb.enrichOrderFromInvoice, prepareHandler(store, 'gwb', 'enrichment', ENRICHMENT_OBJECTS.gwb)),
  gwc: s.route(contract.gwc.enrichPaymentIntentFromInvoice, prepareHandler(store, 'gwc', 'enrichment', ENRICHMENT_OBJECTS.gwc)),
  gwcPreparation: s.route(
    contract.gwc.preparePaymentFromInvoice,
    prepareHandler(store, 'gwc', 'payment_preparation', 'gwc.payment_preparation'),
  ),
});
