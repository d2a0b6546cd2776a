import type { Request } from 'express';
import type { AuthContext } from '../domain/auth/auth-context.js';

/** The authenticated context the route guards attached; its absence is a wiring bug, never a client error. */
export function authOf(req: Request): AuthContext {
  if (!req.auth) throw new Error('route reached without authentication');
  return req.auth;
}
