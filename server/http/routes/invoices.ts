import { initServer } from '@ts-rest/express';
import type { Request } from 'express';
import { contract } from '../../../contract/index.js';
import { getInvoice, listInvoices } from '../../domain/invoices/invoice-views.js';
import { authOf } from '../auth-of.js';

const s = initServer();

/** Endpoints 8 and 9: imported invoices with readiness for the calling key's provider. */
export const invoiceHandlers = () => ({
  list: s.route(contract.invoices.list, async ({ query, req }) => {
    const data = await listInvoices(req.storage, authOf(req as unknown as Request), query);
    return { status: 200 as const, body: { object: 'invoice.list' as const, api_version: 'v1' as const, data } };
  }),
  get: s.route(contract.invoices.get, async ({ params, req }) => {
    const data = await getInvoice(req.storage, authOf(req), params.invoiceId);
    return { status: 200 as const, body: { object: 'invoice' as const, api_version: 'v1' as const, data } };
  }),
});
