import { createTRPCClient, httpLink, TRPCClientError } from '@trpc/client';
import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import type { AdminRouter } from '../../router.js';

export type Inputs = inferRouterInputs<AdminRouter>;
export type Outputs = inferRouterOutputs<AdminRouter>;

/**
 * The admin token lives in sessionStorage only: it is sent as a bearer header and
 * gone when the tab closes; never in a URL, a cookie or localStorage.
 */
const TOKEN_KEY = 'svc.adminToken';
export const session = {
  token: (): string | null => sessionStorage.getItem(TOKEN_KEY),
  signIn: (token: string) => sessionStorage.setItem(TOKEN_KEY, token),
  signOut: () => sessionStorage.removeItem(TOKEN_KEY),
};

export const api = createTRPCClient<AdminRouter>({
  links: [
    httpLink({
      url: '/admin/trpc',
      headers: (): Record<string, string> => {
        const token = session.token();
        return token ? { authorization: `Bearer ${token}` } : {};
      },
    }),
  ],
});

export interface ShownError {
  message: string;
  code: string | undefined;
  issues: { path: string; message: string }[];
}

/** What the operator is shown of a failed call: the tRPC error's message, code and field issues. */
export function shownError(err: unknown): ShownError {
  if (err instanceof TRPCClientError) {
    const data = err.data as { code?: string; issues?: { path: string; message: string }[] } | undefined;
    return { message: err.message, code: data?.code, issues: data?.issues ?? [] };
  }
  return { message: err instanceof Error ? err.message : String(err), code: undefined, issues: [] };
}
