import { z } from 'zod';

export const ScopeSchema = z.enum(['enrichment:write', 'invoices:read', 'payments:write', 'integrations:write', 'integrations:read']);
export type Scope = z.infer<typeof ScopeSchema>;

/** The payment providers whose fields the service prepares and whose outcomes it records. */
export const PaymentProviderSchema = z.enum(['gwa', 'gwb', 'gwc']);
export type PaymentProvider = z.infer<typeof PaymentProviderSchema>;

/** Every kind of integration: the payment providers and the accounting source. */
export const ProviderSchema = z.enum([...PaymentProviderSchema.options, 'ledger']);
export type Provider = z.infer<typeof ProviderSchema>;

/** States of an accounting-source sync run (docs/ledger-sync.md has the moves). */
export const SyncStateSchema = z.enum(['queued', 'running', 'succeeded', 'failed']);
export type SyncState = z.infer<typeof SyncStateSchema>;

/** States of an accounting-source connection; preparation needs `active` (spec: Sync queueing). */
export const ConnectionStatusSchema = z.enum(['active', 'paused', 'disconnected', 'reauthorization_required']);
export type ConnectionStatus = z.infer<typeof ConnectionStatusSchema>;

export const EnvironmentSchema = z.enum(['sandbox', 'production']);
export type Environment = z.infer<typeof EnvironmentSchema>;

/**
 * Access rule of a route, read by the server's auth middleware: the provider (or
 * providers) whose keys may call it and every scope the key must hold. Public (it
 * ships in the SDK), so it never holds a secret.
 */
export interface RouteAccess {
  provider: Provider | readonly Provider[];
  scopes: readonly Scope[];
  /** Largest accepted body in bytes, when smaller than the deployment's limit. */
  maxBodyBytes?: number;
}

export function access(
  provider: Provider | readonly Provider[],
  scopes: readonly Scope[],
  extra: Omit<RouteAccess, 'provider' | 'scopes'> = {},
) {
  return { access: { provider, scopes, ...extra } satisfies RouteAccess } as const;
}
