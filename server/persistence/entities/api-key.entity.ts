import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { Integration } from './integration.entity.js';

/**
 * An API key. Only a SHA-256 hash of the secret is stored (the secret carries
 * 256 random bits, so a slow hash adds nothing); `prefix` is a non-secret
 * lookup handle that also appears in the key itself.
 */
export const ApiKey = defineEntity({
  name: 'ApiKey',
  tableName: 'api_keys',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => crypto.randomUUID()),
    integration: () => p.manyToOne(Integration).index(),
    prefix: p.string().length(32).unique(),
    secretHash: p.string().length(64),
    scopes: p.array(),
    createdAt: p.datetime().onCreate(() => new Date()),
    lastUsedAt: p.datetime().nullable(),
    revokedAt: p.datetime().nullable(),
  },
});
export type ApiKey = InferEntity<typeof ApiKey>;
