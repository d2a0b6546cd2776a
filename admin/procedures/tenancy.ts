import { z } from 'zod';
import { EnvironmentSchema, ProviderSchema, ScopeSchema } from '../../contract/common/index.js';
import { issueApiKey, listApiKeys, revokeApiKey } from '../../server/domain/tenancy/api-keys.js';
import { createIntegration, listIntegrations } from '../../server/domain/tenancy/integrations.js';
import { createLink, deleteLink, listLinks } from '../../server/domain/tenancy/links.js';
import { createOrganization, listOrganizations } from '../../server/domain/tenancy/organizations.js';
import { operatorProcedure, router } from '../trpc.js';

const id = z.string().uuid();

export const organizationsRouter = router({
  create: operatorProcedure
    .input(z.object({ name: z.string().trim().min(1).max(200) }).strict())
    .mutation(({ ctx, input }) => createOrganization(ctx.uow, input)),
  list: operatorProcedure.query(({ ctx }) => listOrganizations(ctx.uow)),
});

export const integrationsRouter = router({
  create: operatorProcedure
    .input(z.object({ organizationId: id, provider: ProviderSchema, environment: EnvironmentSchema }).strict())
    .mutation(({ ctx, input }) => createIntegration(ctx.uow, input)),
  list: operatorProcedure.input(z.object({ organizationId: id }).strict()).query(({ ctx, input }) => listIntegrations(ctx.uow, input)),
});

export const apiKeysRouter = router({
  issue: operatorProcedure
    .input(
      z
        .object({
          integrationId: id,
          scopes: z
            .array(ScopeSchema)
            .min(1)
            .refine((s) => new Set(s).size === s.length, 'Scopes must not repeat'),
        })
        .strict(),
    )
    .mutation(({ ctx, input }) => issueApiKey(ctx.uow, input, ctx.keyMac)),
  list: operatorProcedure.input(z.object({ integrationId: id }).strict()).query(({ ctx, input }) => listApiKeys(ctx.uow, input)),
  revoke: operatorProcedure.input(z.object({ id }).strict()).mutation(({ ctx, input }) => revokeApiKey(ctx.uow, input)),
});

export const linksRouter = router({
  create: operatorProcedure
    .input(z.object({ ledgerIntegrationId: id, providerIntegrationId: id }).strict())
    .mutation(({ ctx, input }) => createLink(ctx.uow, input)),
  delete: operatorProcedure.input(z.object({ id }).strict()).mutation(({ ctx, input }) => deleteLink(ctx.uow, input)),
  list: operatorProcedure
    .input(z.object({ organizationId: id.optional(), integrationId: id.optional() }).strict().default({}))
    .query(({ ctx, input }) => listLinks(ctx.uow, input)),
});
