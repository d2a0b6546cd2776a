import { createEndpoint, disableEndpoint, listEndpoints, setCredentials } from '../../server/domain/webhooks/endpoints.js';
import { listWebhookEvents } from '../../server/domain/webhooks/events-view.js';
import { operatorProcedure, router } from '../trpc.js';
import {
  EndpointCreateInput,
  EndpointCredentialsInput,
  EndpointIdInput,
  EndpointListInput,
  WebhookEventsListInput,
} from './webhooks.schema.js';

/**
 * Provider webhook endpoints (gwa, gwc): the URL to configure at the provider and the secret deliveries are verified
 * with (gwa key pair, gwc signing secret; never shown back), with each endpoint's delivery status.
 */
export const webhookEndpointsRouter = router({
  create: operatorProcedure.input(EndpointCreateInput).mutation(({ ctx, input }) => createEndpoint(ctx.uow, ctx.webhooks, input)),
  list: operatorProcedure.input(EndpointListInput).query(({ ctx, input }) => listEndpoints(ctx.uow, ctx.webhooks, input)),
  disable: operatorProcedure.input(EndpointIdInput).mutation(({ ctx, input }) => disableEndpoint(ctx.uow, ctx.webhooks, input)),
  setCredentials: operatorProcedure
    .input(EndpointCredentialsInput)
    .mutation(({ ctx, input }) => setCredentials(ctx.uow, ctx.webhooks, input)),
});

/** Recorded deliveries, gwa notifications and gwc events (a summary of each; no document, signature or secret). */
export const webhookEventsRouter = router({
  list: operatorProcedure.input(WebhookEventsListInput).query(({ ctx, input }) => listWebhookEvents(ctx.uow, input)),
});
