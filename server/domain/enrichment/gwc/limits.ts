/** gwc (payments provider C) limits; each cites the spec's Limits table or docs/provider-facts.md §3.2. */

/** Spec Limits: "gwc line items 1-200". */
export const GWC_MAX_LINE_ITEMS = 200;
/** Spec Limits: "gwc productName up to 1,024 characters". */
export const GWC_MAX_PRODUCT_NAME = 1024;
/** Spec Limits: productCode, commodityCode, unitOfMeasure up to 12 characters each (12 for the unit is our choice, docs/provider-facts.md §3.2). */
export const GWC_MAX_IDENTIFIER = 12;
/** Spec Limits: "gwc quantity positive safe integer string". */
export const GWC_MAX_QUANTITY = BigInt(Number.MAX_SAFE_INTEGER);
