import type { Environment } from '../../../contract/common/index.js';
import type { TokenCipher } from '../../crypto/token-cipher.js';

/**
 * What the gwa webhook endpoints and their operator procedures need besides the
 * database: the cipher of private keys at rest (the same key as the accounting
 * tokens, server/service.ts), the public base URL endpoints are reached at, and
 * the environment this deployment serves.
 */
export interface WebhookRuntime {
  cipher: TokenCipher;
  publicUrl(): string;
  environment: Environment;
}

/** Path of an endpoint; the URL the merchant configures at the provider is the public URL followed by it. */
export const webhookPath = (endpointId: string): string => `/api/integrations/gwa/webhooks/${endpointId}`;

/** AAD of the two stored private keys: each is bound to its row and to its slot, so neither can be moved. */
export const currentKeySlot = (endpointId: string): string => endpointId;
export const previousKeySlot = (endpointId: string): string => `${endpointId}:previous`;
