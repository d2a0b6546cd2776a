import { initTRPC, TRPCError } from '@trpc/server';
import type { TRPC_ERROR_CODE_KEY } from '@trpc/server/unstable-core-do-not-import';
import { ZodError } from 'zod';
import { DomainError } from '../server/domain/errors.js';
import { KeyTaken } from '../server/domain/idempotency/idempotent-write.js';
import { findUnsafeStructure, refusalMessage } from '../server/domain/guard/secrets-guard.js';
import { issuesFromZodError } from '../server/domain/zod-issues.js';
import type { AdminContext } from './context.js';

const TRPC_CODES: Partial<Record<DomainError['type'], TRPC_ERROR_CODE_KEY>> = {
  validation_error: 'BAD_REQUEST',
  not_found: 'NOT_FOUND',
  conflict: 'CONFLICT',
  gone: 'NOT_FOUND',
  permission_error: 'FORBIDDEN',
  authentication_error: 'UNAUTHORIZED',
  rate_limited: 'TOO_MANY_REQUESTS',
  upstream_error: 'BAD_GATEWAY',
};

const MAX_ISSUES = 20;
const MAX_MESSAGE = 500;

/** No transformer: inputs and outputs are plain JSON, so curl works (POST /admin/trpc/<procedure>). */
const t = initTRPC.context<AdminContext>().create({
  errorFormatter({ shape, error }) {
    const cause = error.cause;
    const all = cause instanceof ZodError ? issuesFromZodError(cause) : cause instanceof DomainError ? cause.issues : undefined;
    // Bounded whatever the input: at most MAX_ISSUES issues, a message of at most MAX_MESSAGE characters.
    const issues = all?.slice(0, MAX_ISSUES);
    return {
      ...shape,
      message: cause instanceof ZodError ? 'Invalid input' : shape.message.slice(0, MAX_MESSAGE),
      data: { code: shape.data.code, httpStatus: shape.data.httpStatus, path: shape.data.path, ...(issues ? { issues } : {}) },
    };
  },
});

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;

/** Every operator procedure: requires the admin token, and turns expected failures into tRPC errors. */
export const operatorProcedure = t.procedure.use(async ({ ctx, next, getRawInput }) => {
  if (!ctx.authorized) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'Send Authorization: Bearer <SVC_ADMIN_TOKEN>' });
  // Query inputs arrive in the URL, past the body check: text PostgreSQL cannot store is refused here, not in a query.
  const unsafe = findUnsafeStructure(await getRawInput());
  if (unsafe.length > 0) {
    const cause = new DomainError('validation_error', refusalMessage(unsafe), unsafe);
    throw new TRPCError({ code: 'BAD_REQUEST', message: cause.message, cause });
  }
  const result = await next();
  if (!result.ok) {
    const cause = result.error.cause;
    if (cause instanceof DomainError) {
      throw new TRPCError({ code: TRPC_CODES[cause.type] ?? 'INTERNAL_SERVER_ERROR', message: cause.message, cause });
    }
    if (cause instanceof KeyTaken) {
      throw new TRPCError({ code: 'CONFLICT', message: 'That record already exists' });
    }
    if (!(cause instanceof ZodError) && result.error.code === 'INTERNAL_SERVER_ERROR') {
      // Never leak internals (SQL, stack) to the operator surface either.
      throw new TRPCError({ code: 'INTERNAL_SERVER_ERROR', message: 'An unexpected error occurred; see the service log', cause });
    }
  }
  return result;
});
