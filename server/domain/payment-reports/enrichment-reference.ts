const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * What a report's `enrichmentRequestId` names. The public field (spec, endpoints
 * 3, 7 and 13) holds one of two kinds of id; inside the service each kind has its own
 * name, so no code has to guess which one it holds.
 */
export type EnrichmentReference =
  /** An inline enrichment (endpoints 2, 5, 10): its `x-svc-request-id`, `req_…`. */
  | { readonly kind: 'inline_enrichment'; readonly requestId: string }
  /** A saved preparation (endpoints 1, 6, 11, 12): its id, a UUID, lower-cased. */
  | { readonly kind: 'preparation'; readonly preparationId: string };

/** The reference an `enrichmentRequestId` value names, or undefined when it is neither kind. */
export function enrichmentReferenceOf(enrichmentRequestId: string): EnrichmentReference | undefined {
  if (enrichmentRequestId.startsWith('req_')) return { kind: 'inline_enrichment', requestId: enrichmentRequestId };
  if (UUID.test(enrichmentRequestId)) return { kind: 'preparation', preparationId: enrichmentRequestId.toLowerCase() };
  return undefined;
}
