import type { Environment } from '../../../contract/common/index.js';
import type { TokenCipher } from '../../crypto/token-cipher.js';

/**
 * What the provider webhook endpoints (gwa, gwc) and their operator procedures need besides the
 * database: the cipher of private keys at rest (the same key as the accounting
 * tokens, server/service.ts), the public base URL endpoints are reached at, and
 * the environment this deployment serves.
 */
export interface WebhookRuntime {
  cipher: TokenCipher;
  publicUrl(): string;
  environment: Environment;
}

/** Providers whose deliveries the service verifies itself (gwb merchants verify their own, spec: Security 5). */
export const WEBHOOK_PROVIDERS = ['gwa', 'gwc'] as const;
export type WebhookProvider = (typeof WEBHOOK_PROVIDERS)[number];

/** Path of an endpoint; the URL the merchant configures at the provider is the public URL followed by it. */
export const webhookPath = (provider: WebhookProvider, endpointId: string): string =>
  `/api/integrations/${provider}/webhooks/${endpointId}`;

/** AAD of the two stored secrets (gwa private keys, gwc signing secrets): each is bound to its row and to its slot, so neither can be moved. */
export const currentKeySlot = (endpointId: string): string => endpointId;
export const previousKeySlot = (endpointId: string): string => `${endpointId}:previous`;
