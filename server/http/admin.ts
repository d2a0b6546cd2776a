import type { Express } from 'express';
import type { AppDeps } from './app.js';

/** Mount the operator surface (tRPC) at /admin/trpc. */
export function mountAdmin(_app: Express, _deps: AppDeps): void {}
