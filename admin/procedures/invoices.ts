import { confirmItemMapping, listItemMappings, revokeItemMapping } from '../../server/domain/invoices/item-mappings.js';
import { getInvoiceForOperator, listInvoicesForOperator } from '../../server/domain/invoices/invoice-views.js';
import { operatorProcedure, router } from '../trpc.js';
import {
  InvoiceGetInput,
  InvoicesListInput,
  ItemMappingConfirmInput,
  ItemMappingListInput,
  ItemMappingRevokeInput,
} from './invoices.schema.js';

/** Merchant-confirmed item facts (product code, unit, commodity code), versioned; docs/invoices.md. */
export const itemMappingsRouter = router({
  confirm: operatorProcedure.input(ItemMappingConfirmInput).mutation(({ ctx, input }) => confirmItemMapping(ctx.uow, input)),
  list: operatorProcedure.input(ItemMappingListInput).query(({ ctx, input }) => listItemMappings(ctx.uow, input)),
  revoke: operatorProcedure.input(ItemMappingRevokeInput).mutation(({ ctx, input }) => revokeItemMapping(ctx.uow, input)),
});

/** Stored invoices with readiness, for operators (one provider, or every provider at once when none is named). */
export const invoicesRouter = router({
  list: operatorProcedure.input(InvoicesListInput).query(({ ctx, input }) => listInvoicesForOperator(ctx.uow, input ?? {})),
  get: operatorProcedure.input(InvoiceGetInput).query(({ ctx, input }) => getInvoiceForOperator(ctx.uow, input)),
});
