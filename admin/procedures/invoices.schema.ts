import { z } from 'zod';
import { PaymentProviderSchema } from '../../contract/common/index.js';
import { MAPPED_IDENTIFIER_MAX } from '../../server/domain/invoices/item-mappings.js';

const id = z.string().uuid();

/** Printable ASCII without leading or trailing spaces, up to the strictest provider limit (spec Limits). */
const identifier = z
  .string()
  .min(1)
  .max(MAPPED_IDENTIFIER_MAX)
  .regex(/^[\x21-\x7E](?:[\x20-\x7E]*[\x21-\x7E])?$/, 'Printable ASCII only, without leading or trailing spaces');

export const ItemMappingConfirmInput = z
  .object({
    connectionId: id,
    sourceItemId: z.string().min(1).max(64),
    productCode: identifier,
    unitOfMeasure: identifier,
    commodityCode: identifier.nullable().optional(),
    evidence: z.string().trim().min(1).max(2000),
    approvedBy: z.string().trim().min(1).max(200),
  })
  .strict();
export const ItemMappingListInput = z.object({ connectionId: id, sourceItemId: z.string().min(1).max(64).optional() }).strict();
export const ItemMappingRevokeInput = z.object({ id }).strict();
export const ConnectionConfigureInput = z.object({ id, purchaseOrderField: z.string().trim().min(1).max(100).nullable() }).strict();

export const InvoicesListInput = z
  .object({
    connectionId: id.optional(),
    provider: PaymentProviderSchema.optional(),
    ready: z.boolean().optional(),
    cursor: z.string().min(1).max(512).optional(),
    limit: z.number().int().min(1).max(100).optional(),
  })
  .strict()
  .optional();
export const InvoiceGetInput = z.object({ id, provider: PaymentProviderSchema.optional() }).strict();
