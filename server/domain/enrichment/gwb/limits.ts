/** gwb (payments provider B) limits from its OpenAPI document (docs/provider-facts.md §2.1). */

/** Order.reference_id: at most 40 characters. */
export const GWB_MAX_REFERENCE_ID = 40;
/** OrderLineItem.name: at most 512 characters. */
export const GWB_MAX_LINE_NAME = 512;
/** OrderLineItem.quantity: a string of 1-12 characters; whole numbers without a quantity_unit. */
export const GWB_MAX_QUANTITY_DIGITS = 12;
/** OrderLineItemTax.percentage: a decimal string of at most 10 characters ("7.25" means 7.25 %). */
export const GWB_MAX_PERCENTAGE_LENGTH = 10;
