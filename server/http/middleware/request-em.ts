import type { MikroORM, EntityManager } from '@mikro-orm/postgresql';
import type { NextFunction, Request, Response } from 'express';

/**
 * A request-scoped EntityManager fork, made on first use: requests that never
 * touch entities (the raw-SQL hot paths) do not pay for the fork.
 */
export function requestEntityManager(orm: MikroORM) {
  return (req: Request, _res: Response, next: NextFunction): void => {
    let em: EntityManager | undefined;
    Object.defineProperty(req, 'em', { get: () => (em ??= orm.em.fork()), configurable: true });
    next();
  };
}
