import { initContract } from '@ts-rest/core';
import { commonResponses } from './common/index.js';
import { paymentReportRoutes } from './payment-reports.js';

const c = initContract();

/**
 * The one contract of the public API. Every `/api/v1` route is declared here
 * (one file per resource); the server, the SDK and the OpenAPI document all
 * derive from it.
 */
export const contract = c.router(
  {
    gwa: c.router({ reportPayment: paymentReportRoutes.gwa }),
    gwb: c.router({ reportPayment: paymentReportRoutes.gwb }),
    gwc: c.router({ reportPayment: paymentReportRoutes.gwc }),
  },
  {
    pathPrefix: '/api/v1',
    strictStatusCodes: true,
    commonResponses,
  },
);
export type Contract = typeof contract;
