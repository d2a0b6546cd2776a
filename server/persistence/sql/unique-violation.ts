import { UniqueConstraintViolationException } from '@mikro-orm/postgresql';

/** A unique constraint refused the write, whether or not the ORM converted the driver's error (SQLSTATE 23505). */
export function isUniqueViolation(err: unknown): boolean {
  return err instanceof UniqueConstraintViolationException || (err as { code?: unknown } | null)?.code === '23505';
}
