import express, { Router } from 'express';
import type { WebhookRateLimit } from '../middleware/rate-limit.js';
import { deliveryOutcome } from '../../domain/webhooks/delivery-outcome.js';
import { webhookMetrics } from '../../observability/business-metrics.js';
import { inSpan } from '../../observability/spans.js';
import { deliverableGwcEndpoint, receiveGwcEvent } from '../../domain/webhooks/gwc/intake.js';
import type { WebhookRuntime } from '../../domain/webhooks/runtime.js';
import { GwcWebhookAckSchema, WEBHOOK_BODY_LIMIT_BYTES } from '../../../contract/webhooks.js';
import { countUnauthenticatedDelivery, readWebhookBody, webhooksNotConfigured, type WebhookDeliveryAccess } from './webhook-body.js';
import { clientOf } from '../client-identity.js';
import type { FailedAuthentications } from '../middleware/failed-auth-gate.js';
import type { RefusalNotes } from '../../domain/webhooks/gwc/intake.js';

/** The body as the provider sent it: the signature covers these exact bytes, so nothing may parse or re-encode them first. */
const rawParser = express.raw({ type: () => true, limit: WEBHOOK_BODY_LIMIT_BYTES });

/**
 * The gwc provider's event deliveries (spec: Events 2; docs/gwc-events.md). Mounted before the JSON content-type
 * check: no bearer key (the signature authenticates), the raw body read only after the endpoint is known to take
 * deliveries, within the webhook limit. Signatures and bodies are never logged.
 */
export function gwcWebhookRoutes(
  getRuntime: () => WebhookRuntime | undefined,
  validateResponses: boolean,
  rateLimit: WebhookRateLimit,
  failures: Pick<FailedAuthentications, 'failed'>,
  refusals: RefusalNotes,
  { endpoints, atOnce }: WebhookDeliveryAccess,
): Router {
  const router = Router({ caseSensitive: true });
  router.post('/api/integrations/gwc/webhooks/:endpointId', async (req, res, next) => {
    try {
      const runtime = getRuntime();
      if (!runtime) throw webhooksNotConfigured();
      const endpoint = await deliverableGwcEndpoint(endpoints, runtime, String(req.params.endpointId), new Date());
      // Before the body is read: an unauthenticated burst costs no HMAC (as for gwa).
      await rateLimit.check(endpoint.endpointId, clientOf(req));
      await readWebhookBody(rawParser, req, res);
      const rawBody = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const ack = await inSpan('webhook.receive', receiveGwcEvent, req.storage, {
        endpoint,
        header: req.get('gwc-signature'),
        rawBody,
        requestId: String(req.id),
        atOnce,
        refusals,
      });
      webhookMetrics.delivered('gwc', deliveryOutcome({ ack }));
      res.status(200).json(validateResponses ? GwcWebhookAckSchema.parse(ack) : ack);
    } catch (err) {
      webhookMetrics.delivered('gwc', deliveryOutcome({ error: err }));
      countUnauthenticatedDelivery(err, clientOf(req), failures);
      next(err);
    }
  });
  return router;
}
