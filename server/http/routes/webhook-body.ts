import type { EndpointDirectory } from '../../domain/webhooks/endpoint-directory.js';
import type { AtOnceWrite } from '../../domain/webhooks/types.js';
import type { Request, RequestHandler, Response } from 'express';
import { DomainError } from '../../domain/errors.js';
import { WEBHOOK_BODY_LIMIT_BYTES } from '../../../contract/webhooks.js';

/** The answer of a provider webhook route on a service started without its webhook runtime. */
export const webhooksNotConfigured = () => new DomainError('internal_error', 'Provider webhooks are not configured on this service');

/**
 * Run a body parser of a provider webhook route (the body is read only once the endpoint is known to take
 * deliveries): a body over the webhook limit becomes 413; any other parser failure is passed to `mapError`, which
 * returns the route's own answer for it or undefined to let it through unchanged.
 */
export function readWebhookBody(
  parser: RequestHandler,
  req: Request,
  res: Response,
  mapError: (type: string | undefined) => DomainError | undefined = () => undefined,
): Promise<void> {
  return new Promise((resolve, reject) => {
    parser(req, res, (err?: unknown) => {
      if (!err) return resolve();
      const type = (err as { type?: string }).type;
      if (type === 'entity.too.large') {
        return reject(new DomainError('payload_too_large', `The request body exceeds the limit of ${WEBHOOK_BODY_LIMIT_BYTES} bytes`));
      }
      reject(mapError(type) ?? err);
    });
  });
}

/** Refusals that say the sender is not the provider: no such endpoint, or a signature that does not verify. */
const UNAUTHENTICATED_DELIVERY = new Set(['endpoint_not_found', 'invalid_signature']);

/**
 * Count a delivery refused as not the provider's against its client (the failed-authentication limit): past its
 * burst, the client's deliveries are refused at the front of the app, before any endpoint lookup or write.
 */
export function countUnauthenticatedDelivery(err: unknown, client: string, failures: { failed(client: string): void }): void {
  if (err instanceof DomainError && UNAUTHENTICATED_DELIVERY.has(err.issues[0]?.code ?? '')) failures.failed(client);
}

/** What both providers' delivery routes share: the endpoint directory and how a delivery is recorded at once. */
export interface WebhookDeliveryAccess {
  endpoints: EndpointDirectory;
  atOnce: AtOnceWrite;
}
