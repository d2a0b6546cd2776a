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

/**
 * Operator inputs name a connection by its row id (`connections.list`'s `id`) as `connectionRowId`: in the API,
 * `connectionId` is the accounting source's company id. `connectionId` is still accepted here as the former name of
 * the row id, for one release (docs/decisions.md, "Names with one meaning").
 */
const CONNECTION_ROW = { connectionRowId: id.optional(), connectionId: id.optional() };

function oneConnectionRow(required: boolean) {
  return (v: { connectionRowId?: string | undefined; connectionId?: string | undefined }, ctx: z.RefinementCtx) => {
    if (v.connectionRowId !== undefined && v.connectionId !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['connectionId'],
        message: 'connectionId is the former name of connectionRowId; send only connectionRowId',
      });
    } else if (required && v.connectionRowId === undefined && v.connectionId === undefined) {
      ctx.addIssue({ code: 'custom', path: ['connectionRowId'], message: 'Required: the connection row id (connections.list id)' });
    }
  };
}

/** The input with the row id under its one internal name, `connectionId` (the domain's name for the row id). */
const asConnectionRow = <T extends { connectionRowId?: string | undefined; connectionId?: string | undefined }>({
  connectionId,
  connectionRowId,
  ...rest
}: T) => ({ ...rest, connectionId: connectionRowId ?? connectionId });

export const ItemMappingConfirmInput = z
  .object({
    ...CONNECTION_ROW,
    sourceItemId: z.string().min(1).max(160),
    productCode: identifier,
    unitOfMeasure: identifier,
    commodityCode: identifier.nullable().optional(),
    evidence: z.string().trim().min(1).max(2000),
    approvedBy: z.string().trim().min(1).max(200),
  })
  .strict()
  .superRefine(oneConnectionRow(true))
  .transform((v) => ({ ...asConnectionRow(v), connectionId: (v.connectionRowId ?? v.connectionId)! }));
export const ItemMappingListInput = z
  .object({ ...CONNECTION_ROW, sourceItemId: z.string().min(1).max(160).optional() })
  .strict()
  .superRefine(oneConnectionRow(true))
  .transform((v) => ({ ...asConnectionRow(v), connectionId: (v.connectionRowId ?? v.connectionId)! }));
export const ItemMappingRevokeInput = z.object({ id }).strict();
export const ConnectionConfigureInput = z.object({ id, purchaseOrderField: z.string().trim().min(1).max(100).nullable() }).strict();

export const InvoicesListInput = z
  .object({
    ...CONNECTION_ROW,
    provider: PaymentProviderSchema.optional(),
    ready: z.boolean().optional(),
    cursor: z.string().min(1).max(512).optional(),
    limit: z.number().int().min(1).max(100).optional(),
  })
  .strict()
  .superRefine(oneConnectionRow(false))
  .transform(asConnectionRow)
  .optional();
export const InvoiceGetInput = z.object({ id, provider: PaymentProviderSchema.optional() }).strict();
