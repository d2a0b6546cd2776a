import type { MikroORM } from '@mikro-orm/postgresql';
import type { QualificationStore } from '../domain/qualification/ports.js';
import { qualificationFixGroups, qualificationLevelGroups } from './sql/qualification.sql.js';
import { sqlOf } from './sql/sql.js';

/** The qualification store on the ORM's pool: each read on a fresh entity manager (no transaction). */
export function qualificationStore(orm: MikroORM): QualificationStore {
  return {
    levelGroups: (filter) => qualificationLevelGroups(sqlOf(orm.em.fork()), filter),
    fixGroups: (filter) => qualificationFixGroups(sqlOf(orm.em.fork()), filter),
  };
}
