import { initServer } from '@ts-rest/express';
import { contract } from '../../../contract/index.js';
import { recordPaymentReport, type FirstWrite } from '../../domain/payment-reports/record-payment-report.js';
import type { PaymentProvider } from '../../../contract/common/index.js';
import { authOf } from '../auth-of.js';

const s = initServer();

const reportHandler =
  <P extends PaymentProvider>(provider: P, firstWrite: FirstWrite) =>
  async ({ body, req }: { body: Parameters<typeof recordPaymentReport>[1]['report']; req: import('express').Request }) => {
    const ack = await recordPaymentReport(req.storage, {
      ctx: authOf(req),
      provider,
      report: body,
      requestId: String(req.id),
      firstWrite,
    });
    return { status: 200 as const, body: { object: `${provider}.payment_report` as const, api_version: 'v1' as const, data: ack } };
  };

/** Endpoints 3, 7 and 13: POST /api/v1/{gwa,gwb,gwc}/payment-reports. */
export const paymentReportHandlers = (firstWrite: FirstWrite) => ({
  gwa: s.route(contract.gwa.reportPayment, reportHandler('gwa', firstWrite)),
  gwb: s.route(contract.gwb.reportPayment, reportHandler('gwb', firstWrite)),
  gwc: s.route(contract.gwc.reportPayment, reportHandler('gwc', firstWrite)),
});
