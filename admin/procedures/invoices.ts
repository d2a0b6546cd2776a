import { confirmItemMapping, listItemMappings, revokeItemMapping } from '../../server/domain/invoices/item-mappings.js';
import { operatorProcedure, router } from '../trpc.js';
import { ItemMappingConfirmInput, ItemMappingListInput, ItemMappingRevokeInput } from './invoices.schema.js';

/** Merchant-confirmed item facts (product code, unit, commodity code), versioned; docs/invoices.md. */
export const itemMappingsRouter = router({
  confirm: operatorProcedure.input(ItemMappingConfirmInput).mutation(({ ctx, input }) => confirmItemMapping(ctx.orm.em.fork(), input)),
  list: operatorProcedure.input(ItemMappingListInput).query(({ ctx, input }) => listItemMappings(ctx.orm.em.fork(), input)),
  revoke: operatorProcedure.input(ItemMappingRevokeInput).mutation(({ ctx, input }) => revokeItemMapping(ctx.orm.em.fork(), input)),
});
