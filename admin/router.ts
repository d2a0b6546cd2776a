import { correlationExceptionsRouter, paymentsRouter } from './procedures/payments.js';
import { apiKeysRouter, integrationsRouter, linksRouter, organizationsRouter } from './procedures/tenancy.js';
import { connectionsRouter, invitationsRouter, syncRunsRouter } from './procedures/ledger.js';
import { invoicesRouter, itemMappingsRouter } from './procedures/invoices.js';
import { evidenceRouter } from './procedures/evidence.js';
import { preparationsRouter } from './procedures/preparations.js';
import { qualificationRouter } from './procedures/qualification.js';
import { webhookEndpointsRouter, webhookEventsRouter } from './procedures/webhooks.js';
import { createCallerFactory, router } from './trpc.js';

/** The operator surface, mounted at /admin/trpc. Procedure names and shapes are a public interface. */
export const adminRouter = router({
  organizations: organizationsRouter,
  integrations: integrationsRouter,
  apiKeys: apiKeysRouter,
  links: linksRouter,
  payments: paymentsRouter,
  correlationExceptions: correlationExceptionsRouter,
  connections: connectionsRouter,
  syncRuns: syncRunsRouter,
  invitations: invitationsRouter,
  itemMappings: itemMappingsRouter,
  invoices: invoicesRouter,
  preparations: preparationsRouter,
  evidence: evidenceRouter,
  qualification: qualificationRouter,
  webhookEndpoints: webhookEndpointsRouter,
  webhookEvents: webhookEventsRouter,
});
export type AdminRouter = typeof adminRouter;

export const createAdminCaller = createCallerFactory(adminRouter);
