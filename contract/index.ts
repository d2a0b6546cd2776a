import { initContract } from '@ts-rest/core';
import { commonResponses } from './common/index.js';
import { inlineEnrichmentRoutes } from './inline-enrichment.js';
import { paymentReportRoutes } from './payment-reports.js';
import { preparationRoutes } from './preparations.js';
import { invoiceRoutes } from './invoices.js';
import { ledgerRoutes } from './ledger.js';

const c = initContract();

/**
 * The one contract of the public API. Every `/api/v1` route is declared here
 * (one file per resource); the server, the SDK and the OpenAPI document all
 * derive from it.
 */
export const contract = c.router(
  {
    gwa: c.router({
      enrichTransaction: inlineEnrichmentRoutes.gwa,
      enrichTransactionFromInvoice: preparationRoutes.gwa,
      reportPayment: paymentReportRoutes.gwa,
    }),
    gwb: c.router({
      enrichOrder: inlineEnrichmentRoutes.gwb,
      enrichOrderFromInvoice: preparationRoutes.gwb,
      reportPayment: paymentReportRoutes.gwb,
    }),
    gwc: c.router({
      enrichPaymentIntent: inlineEnrichmentRoutes.gwc,
      enrichPaymentIntentFromInvoice: preparationRoutes.gwc,
      preparePaymentFromInvoice: preparationRoutes.gwcPreparation,
      reportPayment: paymentReportRoutes.gwc,
    }),
    invoices: invoiceRoutes,
    ledger: ledgerRoutes,
  },
  {
    pathPrefix: '/api/v1',
    strictStatusCodes: true,
    commonResponses,
  },
);
export type Contract = typeof contract;
