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
  let endpoints = new Map<string, { epoch: string; endpoint: DeliveryEndpoint }>();
  let lastEpoch: string | undefined;
  return {
    async find(id) {
      const epoch = await currentEpoch();
      if (epoch !== lastEpoch) {
        // Everything read at an older epoch is stale; drop it rather than keep it to compare against.
        if (lastEpoch === undefined || BigInt(epoch) > BigInt(lastEpoch)) endpoints = new Map();
        lastEpoch = epoch;
      }
      const cached = endpoints.get(id);
      if (cached && cached.epoch === epoch) return cached.endpoint;
      const loaded = await store.findEndpointForDelivery(id);
      if (loaded.endpoint) {
        if (endpoints.size >= MAX_CACHED_ENDPOINTS) endpoints = new Map();
        endpoints.set(id, { epoch: loaded.epoch, endpoint: loaded.endpoint });
      }
      return loaded.endpoint;
    },
  };
}
