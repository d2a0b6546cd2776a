import type { Contract } from '../../contract/index.js';
import type { RouteArgs, RouteCall, SvcResponse } from './client.js';

type ListRoute = Contract['invoices']['list'];
type ListArgs = RouteArgs<ListRoute>;

/** `svc.invoices.listAll` arguments: those of `list` without `cursor`, which the iterator owns. */
export type ListAllInvoicesArgs = Omit<ListArgs, 'query'> & { query?: Omit<NonNullable<ListArgs['query']>, 'cursor'> };

/** One element of a list page, as the contract types it (spec: InvoiceSummary). */
export type InvoiceListItem = SvcResponse<ListRoute>['body']['data']['invoices'][number];

/** What the SDK adds to the `invoices` namespace beside the contract's routes. */
export interface InvoicesHelpers {
  /**
   * Every visible invoice matching the filters, page after page: follows
   * `nextCursor` with identical filters until it is null (spec: endpoint 8).
   * A failing page throws `SvcError` from the loop; each page is one GET, retried
   * under the client's policy (docs/decisions.md, SDK and OpenAPI).
   */
  listAll(args?: ListAllInvoicesArgs): AsyncGenerator<InvoiceListItem, void, undefined>;
}

export async function* listAllPages(
  list: RouteCall<ListRoute>,
  args: ListAllInvoicesArgs = {},
): AsyncGenerator<InvoiceListItem, void, undefined> {
  // The cursor is bound to the filters it was issued for, so every page repeats them unchanged.
  let cursor: string | null = null;
  do {
    const page: SvcResponse<ListRoute> = await list({ ...args, query: { ...args.query, ...(cursor === null ? {} : { cursor }) } });
    yield* page.body.data.invoices;
    cursor = page.body.data.nextCursor;
  } while (cursor !== null);
}
