import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { expect } from 'vitest';
import {
  GwaTransactionEnrichmentDataSchema,
  GwbOrderEnrichmentDataSchema,
  GwcPaymentIntentEnrichmentDataSchema,
  type GwaTransactionEnrichmentData,
  type GwbOrderEnrichmentData,
  type GwcPaymentIntentEnrichmentData,
} from '../../../../contract/enrichment.js';

/**
 * Validates outputs against the providers' published request schemas, copied
 * into test/fixtures/provider-schemas (draft 2020-12, every object closed).
 */
const addFormats = addFormatsModule.default;
const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats(ajv);

function load(name: string) {
  const url = new URL(`../../../fixtures/provider-schemas/${name}`, import.meta.url);
  return ajv.compile(JSON.parse(readFileSync(url, 'utf8')) as object);
}

const gwaSchema = load('gwa-transaction-fields.schema.json');
/** Root `$ref: #/$defs/Order`; `location_id` is required on a full create, so the caller's merge is modelled. */
const gwbOrderSchema = load('gwb-order.schema.json');
/** Root: the PaymentIntent request fields `payment_details` and `amount_details`. */
const gwcSchema = load('gwc-payment-intent-fields.schema.json');

export function expectGwaConforms(data: GwaTransactionEnrichmentData): void {
  expect(GwaTransactionEnrichmentDataSchema.parse(data)).toStrictEqual(data);
  expect(gwaSchema(data), JSON.stringify(gwaSchema.errors)).toBe(true);
}

export function expectGwbConforms(data: GwbOrderEnrichmentData): void {
  expect(GwbOrderEnrichmentDataSchema.parse(data)).toStrictEqual(data);
  const merged = { location_id: 'L_TEST_LOCATION', ...data };
  expect(gwbOrderSchema(merged), JSON.stringify(gwbOrderSchema.errors)).toBe(true);
}

export function expectGwcConforms(data: GwcPaymentIntentEnrichmentData): void {
  expect(GwcPaymentIntentEnrichmentDataSchema.parse(data)).toStrictEqual(data);
  expect(gwcSchema(data), JSON.stringify(gwcSchema.errors)).toBe(true);
}
