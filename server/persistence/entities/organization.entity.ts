import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

export const Organization = defineEntity({
  name: 'Organization',
  tableName: 'organizations',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => crypto.randomUUID()),
    name: p.string().length(200),
    /** An inactive organization keeps its data but can no longer be acted for (spec endpoint 14: 404). */
    status: p.enum(['active', 'inactive']).default('active'),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export type Organization = InferEntity<typeof Organization>;
