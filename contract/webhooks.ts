import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { ErrorEnvelopeSchema } from './common/index.js';
import { ReportStatusSchema } from './payment-reports.js';

const c = initContract();

/** Largest delivery body; notifications are a few kilobytes (docs/decisions.md, "gwa webhook"). */
export const WEBHOOK_BODY_LIMIT_BYTES = 64 * 1024;

/**
 * `status` of an acknowledgment: the gwa report status recorded (gwa has no `requires_action`), else why none was:
 * `no_payment_effect` (the kind does not touch a tracked payment) or `rejected` (the observation contradicts the
 * payment's history; the reasons are kept for the operator).
 */
export const WebhookEventStatusSchema = z.enum([
  ...ReportStatusSchema.exclude(['requires_action']).options,
  'no_payment_effect',
  'rejected',
]);

/** `status` of a gwc acknowledgment: any gwc report status (with `requires_action`), `no_payment_effect` or `rejected`. */
export const GwcWebhookEventStatusSchema = z.enum([...ReportStatusSchema.options, 'no_payment_effect', 'rejected']);

/** The acknowledgment of a delivery, one shape for every provider (spec: Events 1). */
const webhookAck = (status: z.ZodTypeAny, kind: string, description: string) =>
  z
    .object({
      received: z.literal(true),
      kind: z.string().describe(kind),
      status: status.describe(
        'The payment status the delivery was recorded as; `no_payment_effect` for kinds that change no payment; ' +
          "`rejected` when its observation contradicts the payment's recorded history (kept for the operator)",
      ),
      duplicate: z.boolean().describe('True when this delivery was already recorded; nothing changed'),
    })
    .strict()
    .describe(description);

export const WebhookAckSchema = webhookAck(
  WebhookEventStatusSchema,
  'The notification kind as the provider sent it, for example `transaction_settled` or `check`',
  'Webhook acknowledgment',
);
export const GwcWebhookAckSchema = webhookAck(
  GwcWebhookEventStatusSchema,
  'The event type as the provider sent it, for example `payment_intent.succeeded`',
  'gwc event acknowledgment',
);

/** Most `v1` signatures one `gwc-signature` header may carry (docs/gwc-events.md). */
export const GWC_MAX_SIGNATURES = 4;

const EndpointPath = z.object({ endpointId: z.string().describe('The endpoint id from the URL the operator registered') });

const webhookErrors = {
  400: ErrorEnvelopeSchema.describe('Issue `invalid_signature` (signature missing or not matching) or `invalid_event` (payload unusable)'),
  404: ErrorEnvelopeSchema.describe('Issue `endpoint_not_found`: no such endpoint (malformed ids answer alike)'),
  409: ErrorEnvelopeSchema.describe(
    "Issue `credentials_required` (the endpoint has no key pair) or `connection_unavailable` (the endpoint's integration cannot take events)",
  ),
  410: ErrorEnvelopeSchema.describe('Issue `endpoint_disabled`: the endpoint was disabled; the provider should stop delivering'),
  413: ErrorEnvelopeSchema,
  415: ErrorEnvelopeSchema,
  500: ErrorEnvelopeSchema,
};

const deliveryLimited = {
  429: ErrorEnvelopeSchema.describe(
    '`rate_limited`: more deliveries to this endpoint than the provider sends; retry after `Retry-After` seconds',
  ),
};

/**
 * Routes called by the gwa provider, not by clients (spec: endpoint 4, Events 1).
 * Kept out of `contract` so the merchant SDK never has them; the server and the
 * OpenAPI document use this router.
 */
export const webhookContract = c.router({
  gwaWebhooks: c.router({
    receive: c.mutation({
      method: 'POST',
      path: '/api/integrations/gwa/webhooks/:endpointId',
      pathParams: EndpointPath,
      contentType: 'application/x-www-form-urlencoded',
      body: z
        .object({
          gwa_signature: z.string().describe('`publicKey|hexSignature` pairs joined by `&`'),
          gwa_payload: z.string().describe('Base64 of the notification XML, possibly ending in a newline'),
        })
        .describe('Other form fields are ignored'),
      responses: { 200: WebhookAckSchema, ...webhookErrors, ...deliveryLimited },
      summary: 'Receive a gwa notification',
      description:
        'Configured at the provider as the webhook URL of one registered endpoint; never called by clients, and not in the SDK. No bearer key: ' +
        "the signature, HMAC-SHA1 keyed by the SHA-1 of the endpoint's private key, authenticates the delivery. Each notification is recorded " +
        'once; a repeat is answered 200 with `duplicate: true` and changes nothing. Transaction notifications become payment observations ' +
        '(`source: merchant_webhook`) of the payment with the same `transactionId`.',
      metadata: { operationId: 'gwaWebhookReceive', webhook: true },
    }),
    verify: c.query({
      method: 'GET',
      path: '/api/integrations/gwa/webhooks/:endpointId',
      pathParams: EndpointPath,
      query: z.object({ gwa_challenge: z.string().describe('20 to 32 lowercase hex digits') }).strict(),
      responses: {
        200: z.string().describe('`publicKey|HMAC-SHA1hex(SHA1(privateKey), challenge)` as text/plain'),
        ...webhookErrors,
      },
      summary: 'Answer the gwa verification handshake',
      description: "The provider proves the URL with a challenge; the answer is signed with the endpoint's current key pair.",
      metadata: { operationId: 'gwaWebhookVerify', webhook: true },
    }),
  }),
});

const gwcErrors = {
  400: ErrorEnvelopeSchema.describe(
    'Issue `invalid_signature` (header missing or malformed, more than ' +
      `${GWC_MAX_SIGNATURES} signatures, timestamp more than 300 s from the server clock, or no signature matching the endpoint's ` +
      'signing secret) or `invalid_event` (not JSON, not an event object, `livemode` contradicting the integration environment, ' +
      'or an event whose payment fields are unusable)',
  ),
  404: webhookErrors[404],
  409: ErrorEnvelopeSchema.describe('Issue `credentials_required` (no signing secret yet) or `connection_unavailable`'),
  410: webhookErrors[410],
  413: ErrorEnvelopeSchema,
  500: ErrorEnvelopeSchema,
};

/** Routes called by the gwc provider (spec: Events 2); like the gwa ones, outside the client contract and the SDK. */
export const gwcWebhookContract = c.router({
  gwcWebhooks: c.router({
    receive: c.mutation({
      method: 'POST',
      path: '/api/integrations/gwc/webhooks/:endpointId',
      pathParams: EndpointPath,
      headers: z.object({
        'gwc-signature': z.string().describe('`t=<unix seconds>,v1=<hex>[,v1=<hex>…]`; v1 = HMAC-SHA256(signing secret, `<t>.<raw body>`)'),
      }),
      contentType: 'application/json',
      body: z
        .object({
          id: z.string().describe('`evt_…`; recorded once per endpoint'),
          type: z.string().describe('For example `payment_intent.succeeded`, `charge.refunded`'),
          created: z.number().int().describe('Unix seconds'),
          livemode: z.boolean().describe("Must match the integration's environment (production ↔ true)"),
          data: z.object({ object: z.object({}).passthrough().describe('The PaymentIntent, Charge or other object') }).passthrough(),
        })
        .passthrough()
        .describe("The provider's event object, verified on its raw bytes"),
      responses: { 200: GwcWebhookAckSchema, ...gwcErrors },
      summary: 'Receive a gwc event',
      description:
        'Configured at the provider as the webhook URL of one registered endpoint; never called by clients, and not in the SDK. No bearer ' +
        "key: the `gwc-signature` header, signed with the endpoint's signing secret (or the previous one for 24 hours after a rotation), " +
        'authenticates the delivery. Each event is recorded once per endpoint; a repeat is answered 200 with `duplicate: true`. PaymentIntent ' +
        'and Charge events become provider-verified payment observations of the payment with the same PaymentIntent id; other types are ' +
        'recorded with `no_payment_effect`.',
      metadata: { operationId: 'gwcWebhookReceive', webhook: true },
    }),
  }),
});
