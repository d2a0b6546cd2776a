import { useCallback, useEffect, useState } from 'preact/hooks';
import { shownError, type ShownError } from './api.js';

export interface Loaded<T> {
  data: T | undefined;
  error: ShownError | undefined;
  loading: boolean;
  reload: () => void;
}

/** Run a query when its inputs change; `reload` runs it again (after a mutation, or on a timer). */
export function useQuery<T>(run: () => Promise<T>, deps: unknown[]): Loaded<T> {
  const [state, setState] = useState<{ data?: T; error?: ShownError; loading: boolean }>({ loading: true });
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    setState((s) => ({ ...s, loading: true }));
    run().then(
      (data) => live && setState({ data, loading: false }),
      (err: unknown) => live && setState({ error: shownError(err), loading: false }),
    );
    return () => {
      live = false;
    };
  }, [...deps, tick]);
  return { data: state.data, error: state.error, loading: state.loading, reload: useCallback(() => setTick((t) => t + 1), []) };
}

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

export interface Paged<T> extends Loaded<Page<T>> {
  pageNumber: number;
  next: (() => void) | undefined;
  previous: (() => void) | undefined;
}

/**
 * Cursor paging: the cursors of the pages seen so far are kept, so "Previous" goes
 * back without the server paging backwards. New filters start again at page 1.
 */
export function usePaged<T>(fetchPage: (cursor: string | undefined) => Promise<Page<T>>, deps: unknown[]): Paged<T> {
  const key = JSON.stringify(deps);
  const [paging, setPaging] = useState<{ key: string; cursors: (string | undefined)[] }>({ key, cursors: [undefined] });
  const cursors = paging.key === key ? paging.cursors : [undefined];
  const cursor = cursors.at(-1);
  const loaded = useQuery(() => fetchPage(cursor), [key, cursor]);
  const nextCursor = loaded.data?.nextCursor;
  return {
    ...loaded,
    pageNumber: cursors.length,
    next: nextCursor ? () => setPaging({ key, cursors: [...cursors, nextCursor] }) : undefined,
    previous: cursors.length > 1 ? () => setPaging({ key, cursors: cursors.slice(0, -1) }) : undefined,
  };
}

/** Lists the service returns whole (bounded on its side), paged here the same way as cursor-paged ones. */
export function pageOf<T>(all: T[], cursor: string | undefined, size = 25): Page<T> {
  const start = cursor ? Number(cursor) : 0;
  const end = start + size;
  return { items: all.slice(start, end), nextCursor: end < all.length ? String(end) : null };
}

/** A mutation's state: busy while it runs, its error until the next attempt. */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ShownError | undefined>();
  const run = useCallback(async <T>(action: () => Promise<T>): Promise<T | undefined> => {
    setBusy(true);
    setError(undefined);
    try {
      return await action();
    } catch (err) {
      setError(shownError(err));
      return undefined;
    } finally {
      setBusy(false);
    }
  }, []);
  return { busy, error, run, clear: () => setError(undefined) };
}

/** Call `tick` every `ms` while `active`. */
export function useInterval(tick: () => void, ms: number, active: boolean): void {
  useEffect(() => {
    if (!active) return;
    const id = setInterval(tick, ms);
    return () => clearInterval(id);
  }, [tick, ms, active]);
}
