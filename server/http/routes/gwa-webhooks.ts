import express, { Router, type Request, type Response } from 'express';
import { DomainError } from '../../domain/errors.js';
import {
  answerChallenge,
  deliverableEndpoint,
  invalidEvent,
  invalidSignature,
  receiveNotification,
} from '../../domain/webhooks/gwa/intake.js';
import type { WebhookRuntime } from '../../domain/webhooks/runtime.js';
import type { WebhookRateLimit } from '../middleware/rate-limit.js';
import { WEBHOOK_BODY_LIMIT_BYTES, WebhookAckSchema } from '../../../contract/webhooks.js';
import { countUnauthenticatedDelivery, readWebhookBody, webhooksNotConfigured, type WebhookDeliveryAccess } from './webhook-body.js';
import { clientOf } from '../client-identity.js';
import type { FailedAuthentications } from '../middleware/failed-auth-gate.js';
import { deliveryOutcome } from '../../domain/webhooks/delivery-outcome.js';
import { webhookMetrics } from '../../observability/business-metrics.js';
import { inSpan } from '../../observability/spans.js';

const notConfigured = webhooksNotConfigured;

const formParser = express.urlencoded({
  extended: false,
  limit: WEBHOOK_BODY_LIMIT_BYTES,
  parameterLimit: 10,
  type: 'application/x-www-form-urlencoded',
});

function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** Read the form body within the webhook's own limit; parser failures become this endpoint's answers. */
function readForm(req: Request, res: Response): Promise<Record<string, unknown>> {
  if (hasBody(req) && !req.is('application/x-www-form-urlencoded')) {
    return Promise.reject(new DomainError('unsupported_media_type', 'Deliveries must be sent as application/x-www-form-urlencoded'));
  }
  return readWebhookBody(formParser, req, res, (type) =>
    type === 'parameters.too.many' ? invalidEvent('The form has too many fields') : undefined,
  ).then(() => (req.body ?? {}) as Record<string, unknown>);
}

/**
 * The provider's deliveries (spec: endpoint 4, Events 1). Mounted before the
 * JSON content-type check: no bearer key (the signature authenticates), a form
 * body read only after the endpoint is known to take deliveries, within a small
 * limit (docs/decisions.md, "gwa webhook"). Signatures and payloads are never logged.
 */
export function gwaWebhookRoutes(
  getRuntime: () => WebhookRuntime | undefined,
  validateResponses: boolean,
  rateLimit: WebhookRateLimit,
  failures: Pick<FailedAuthentications, 'failed'>,
  { endpoints, atOnce }: WebhookDeliveryAccess,
): Router {
  const router = Router({ caseSensitive: true });
  router.post('/api/integrations/gwa/webhooks/:endpointId', async (req, res, next) => {
    try {
      const runtime = getRuntime();
      if (!runtime) throw notConfigured();
      const endpoint = await deliverableEndpoint(endpoints, runtime, String(req.params.endpointId), new Date());
      // Before the body is read or any HMAC computed: a burst costs one token check per request.
      await rateLimit.check(endpoint.endpointId, clientOf(req));
      const form = await readForm(req, res);
      const signature = form.gwa_signature;
      const payload = form.gwa_payload;
      if (typeof signature !== 'string' || signature === '') throw invalidSignature('gwa_signature is required, once');
      if (typeof payload !== 'string' || payload === '') throw invalidSignature('gwa_payload is required, once');
      const ack = await inSpan('webhook.receive', receiveNotification, req.storage, {
        endpoint,
        signature,
        payload,
        requestId: String(req.id),
        atOnce,
      });
      webhookMetrics.delivered('gwa', deliveryOutcome({ ack }));
      res.status(200).json(validateResponses ? WebhookAckSchema.parse(ack) : ack);
    } catch (err) {
      webhookMetrics.delivered('gwa', deliveryOutcome({ error: err }));
      countUnauthenticatedDelivery(err, clientOf(req), failures);
      next(err);
    }
  });
  router.get('/api/integrations/gwa/webhooks/:endpointId', async (req, res, next) => {
    try {
      const runtime = getRuntime();
      if (!runtime) throw notConfigured();
      const answer = await answerChallenge(endpoints, runtime, String(req.params.endpointId), req.query.gwa_challenge);
      res.status(200).type('text/plain').send(answer);
    } catch (err) {
      countUnauthenticatedDelivery(err, clientOf(req), failures);
      next(err);
    }
  });
  return router;
}
