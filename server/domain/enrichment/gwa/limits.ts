/** gwa (card gateway A) limits; each cites the spec's Limits table or docs/provider-facts.md §1.2. */

/** Spec Limits: "gwa line items up to 249" (a 250-line test fails, docs/provider-facts.md §1.2). */
export const GWA_MAX_LINE_ITEMS = 249;
/** Spec Limits: "gwa purchaseOrderNumber up to 17 characters". */
export const GWA_MAX_PURCHASE_ORDER_NUMBER = 17;
/** Spec Limits: line name up to 35 characters, shortened. */
export const GWA_MAX_LINE_NAME = 35;
/** Spec Limits: line description up to 127 characters, shortened. */
export const GWA_MAX_LINE_DESCRIPTION = 127;
/** Spec Limits: productCode, commodityCode, unitOfMeasure up to 12 characters each, rejected when longer. */
export const GWA_MAX_IDENTIFIER = 12;
/** Spec Limits: quantity has at most 4 fraction digits. */
export const GWA_MAX_QUANTITY_FRACTION_DIGITS = 4;
/** Spec Limits: "gwa currency USD only" (canonical currencies are lowercase). */
export const GWA_CURRENCY = 'usd';
/** USD has two fraction digits; gwa takes amounts as dollar strings such as "12.34". */
export const GWA_AMOUNT_FRACTION_DIGITS = 2;
