import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * One row: a counter that triggers move on every change able to alter an API
 * key's verdict (migration auth_epoch); key caches compare it per request.
 * Never written through the ORM.
 */
export const AuthEpoch = defineEntity({
  name: 'AuthEpoch',
  tableName: 'auth_epoch',
  properties: {
    id: p.boolean().primary().default(true),
    value: p.bigint(),
  },
});
export type AuthEpoch = InferEntity<typeof AuthEpoch>;
