import { epochCache } from '../epoch-cache.js';
import type { UnitOfWork } from '../unit-of-work.js';
import type { WebhookStore } from './ports.js';
import type { DeliveryEndpoint } from './types.js';

/** Where a delivery's endpoint is looked up: the row with its organization's status and its integration. */
export interface EndpointDirectory {
  find(id: string): Promise<DeliveryEndpoint | undefined>;
}

/** Beyond this many cached endpoints the cache starts over (a bound on memory, not a tuning knob). */
const MAX_CACHED_ENDPOINTS = 10_000;

/**
 * Delivery endpoints cached in this process, each tagged with the auth epoch it was read at, as key records are
 * (`cachedKeyDirectory`; docs/decisions.md, "Key cache"). Every lookup first reads the current epoch (a read that
 * starts after the request arrived, shared by the requests that arrive together) and uses a cached endpoint only at
 * the epoch it was read at. Every change that can alter a delivery's verdict moves the epoch in its own transaction,
 * whichever process or plain SQL makes it: an endpoint's status, secrets or tenant (migration
 * webhook_endpoint_epoch), its organization or its integration (migration auth_epoch). So a disabled endpoint or a
 * rotated secret is seen by the very next delivery. Unknown ids are not cached: each is read.
 */
export function cachedEndpointDirectory(
  storage: UnitOfWork<{ webhooks: WebhookStore }>,
  currentEpoch: () => Promise<string>,
): EndpointDirectory {
  const store = storage.store.webhooks;
  const endpoints = epochCache<DeliveryEndpoint>(MAX_CACHED_ENDPOINTS);
  return {
    async find(id) {
      const epoch = await currentEpoch();
      endpoints.see(epoch);
      const cached = endpoints.at(id, epoch);
      if (cached) return cached;
      const loaded = await store.findEndpointForDelivery(id);
      if (loaded.endpoint) endpoints.set(id, loaded.epoch, loaded.endpoint);
      return loaded.endpoint;
    },
  };
}
