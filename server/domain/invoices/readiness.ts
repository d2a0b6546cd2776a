import type { CanonicalInvoice } from '../../../contract/canonical-invoice.js';
import type { CategorizedIssue, ConnectionStatus, PaymentProvider } from '../../../contract/common/index.js';
import type { StoredInvoice } from '../../../contract/invoices.js';
import { checkPaymentState, enrichInline, type EnrichmentRequest } from '../enrichment/index.js';
import { appliesTo, categorize, invoiceIssue } from './issue-categories.js';
import { toCanonicalInvoice } from './to-canonical.js';
import { deepFreeze } from '../deep-freeze.js';

/** Spec Limits: "completed source checkpoint within 4 hours and no active or pending refresh". */
export const FRESHNESS_WINDOW_MS = 4 * 60 * 60 * 1000;

export interface ReadinessInput {
  /** The provider of the calling key's integration: field rules differ per provider. */
  readonly provider: PaymentProvider;
  /** The stored snapshot and the issues the mapper found for it. */
  readonly invoice: StoredInvoice;
  /** The snapshot's id: the key of a `SnapshotChecksCache`; without it nothing is cached. */
  readonly snapshotId?: string | undefined;
  readonly mapperIssues: readonly CategorizedIssue[];
  /** Deleted at the source since (or when) it was mapped. */
  readonly deleted: boolean;
  readonly connectionStatus: ConnectionStatus;
  /** Boundary of the last completed sync checkpoint; `null` when none completed. */
  readonly checkedThrough: Date | null;
  /** A sync of the connection is queued or running. */
  readonly syncActive: boolean;
  /** Injected clock: freshness is evaluated at read time. */
  readonly now: Date;
}

export interface Readiness {
  readonly ready: boolean;
  /** Every issue, categorized, without duplicates (same code and path). */
  readonly issues: CategorizedIssue[];
  readonly checkedThrough: string | null;
  /** The invoice as the enrichment core takes it, or `null` when a fact is unavailable. */
  readonly canonical: CanonicalInvoice | null;
  /** The provider fields the enrichment core made of `canonical` (`preparationRequest`), or `null` when it refused or had none. */
  readonly enrichment: unknown;
}

/**
 * Whether an invoice can be prepared for `provider` now, with exactly the checks
 * invoice-backed preparation applies: source state, mapping issues, the
 * enrichment core's rules for the provider (one implementation with the inline
 * endpoints), freshness and access. The preparation adds only what a request
 * brings: amountMinor, currency and expectedRevision (docs/decisions.md).
 */
export function readinessOf(input: ReadinessInput, cache?: SnapshotChecksCache): Readiness {
  const deletion = deletionIssues(input.deleted);
  const snapshot = snapshotChecksOf(input, cache);
  const issues = [
    ...deletion,
    ...snapshot.issues,
    ...withoutExplainedPaths(snapshot.unavailableFacts, deletion),
    ...freshnessIssues(input.checkedThrough, input.syncActive, input.now),
    ...accessIssues(input.connectionStatus),
  ];
  const unique = dedupe(issues);
  return {
    ready: unique.length === 0,
    issues: unique,
    checkedThrough: input.checkedThrough?.toISOString() ?? null,
    canonical: snapshot.canonical,
    enrichment: snapshot.enrichment,
  };
}

/** What readiness reads of the snapshot alone, for one provider. */
export interface SnapshotChecks {
  /** The mapper's issues that apply to the provider, then the enrichment core's. */
  readonly issues: readonly CategorizedIssue[];
  /** The facts the canonical conversion found unavailable, except where an issue above already names the path. */
  readonly unavailableFacts: readonly CategorizedIssue[];
  readonly canonical: CanonicalInvoice | null;
  readonly enrichment: unknown;
}

/**
 * Snapshot checks kept by snapshot id and provider. A snapshot is immutable (a change at the source or in the
 * mappings writes a new one with a new id, and the table refuses updates), so an entry never goes stale; the caller
 * that owns the cache decides its size. Deletion, freshness, access and the request's own checks are never cached.
 */
export interface SnapshotChecksCache {
  get(snapshotId: string, provider: PaymentProvider): SnapshotChecks | undefined;
  set(snapshotId: string, provider: PaymentProvider, checks: SnapshotChecks): void;
}

/** A `SnapshotChecksCache` of at most `max` entries (past that it starts over: a bound on memory, not a tuning knob). */
export function snapshotChecksCache(max = 4096): SnapshotChecksCache {
  let entries = new Map<string, SnapshotChecks>();
  return {
    get: (snapshotId, provider) => entries.get(`${provider}:${snapshotId}`),
    set(snapshotId, provider, checks) {
      if (entries.size >= max) entries = new Map();
      entries.set(`${provider}:${snapshotId}`, deepFreeze(checks));
    },
  };
}

function snapshotChecksOf(input: ReadinessInput, cache: SnapshotChecksCache | undefined): SnapshotChecks {
  const { snapshotId, provider } = input;
  if (cache === undefined || snapshotId === undefined) return snapshotChecks(provider, input.invoice, input.mapperIssues);
  const held = cache.get(snapshotId, provider);
  if (held) return held;
  const checks = snapshotChecks(provider, input.invoice, input.mapperIssues);
  cache.set(snapshotId, provider, checks);
  return checks;
}

/** The checks that read only the snapshot: the mapper's issues, the canonical conversion and the enrichment core. */
function snapshotChecks(provider: PaymentProvider, invoice: StoredInvoice, mapperIssues: readonly CategorizedIssue[]): SnapshotChecks {
  const issues = mapperIssues.filter((i) => appliesTo(i.code, provider));
  const canonical = toCanonicalInvoice(invoice);
  const enriched = canonical.ok ? enrichInline(provider, preparationRequest(provider, canonical.invoice)) : undefined;
  if (enriched && !enriched.ok) issues.push(...enriched.issues.map(categorize));
  // The core checked the full-invoice rule on the canonical invoice; without one it is checked on what is known.
  if (!canonical.ok) issues.push(...checkPaymentState(invoice).map(categorize));
  return {
    issues,
    unavailableFacts: canonical.ok ? [] : withoutExplainedPaths(canonical.issues, issues),
    canonical: canonical.ok ? canonical.invoice : null,
    enrichment: enriched?.ok ? enriched.data : null,
  };
}

/**
 * The inline request that invoice-backed preparation sends to the enrichment
 * core: default options, except gwc's order reference, which is the invoice
 * number for invoice-backed requests (spec: Enrichment outputs, gwc).
 */
export function preparationRequest<P extends PaymentProvider>(provider: P, invoice: CanonicalInvoice): EnrichmentRequest<P> {
  const requests: { [Q in PaymentProvider]: EnrichmentRequest<Q> } = {
    gwa: { invoice },
    gwb: { invoice },
    gwc: { invoice, options: { orderReference: invoice.invoiceNumber } },
  };
  return requests[provider];
}

/**
 * What can change about a stored invoice without a new snapshot: deletion at the source, freshness and access. Every
 * other check reads the snapshot, which is immutable (a saved preparation's replay re-runs only these).
 */
export function sourceStateIssues(
  input: Pick<ReadinessInput, 'deleted' | 'connectionStatus' | 'checkedThrough' | 'syncActive' | 'now'>,
): CategorizedIssue[] {
  return [
    ...deletionIssues(input.deleted),
    ...freshnessIssues(input.checkedThrough, input.syncActive, input.now),
    ...accessIssues(input.connectionStatus),
  ];
}

function deletionIssues(deleted: boolean): CategorizedIssue[] {
  return deleted ? [invoiceIssue('invoice_deleted_at_source', 'source')] : [];
}

export function freshnessIssues(checkedThrough: Date | null, syncActive: boolean, now: Date): CategorizedIssue[] {
  const issues: CategorizedIssue[] = [];
  if (checkedThrough === null) {
    issues.push(invoiceIssue('source_stale', 'source.checkedThrough', 'No sync has completed.'));
  } else if (now.getTime() - checkedThrough.getTime() > FRESHNESS_WINDOW_MS) {
    issues.push(invoiceIssue('source_stale', 'source.checkedThrough', `Last checkpoint ${checkedThrough.toISOString()}.`));
  }
  if (syncActive) issues.push(invoiceIssue('sync_in_progress', 'source.sync'));
  return issues;
}

export function accessIssues(status: ConnectionStatus): CategorizedIssue[] {
  switch (status) {
    case 'active':
      return [];
    case 'paused':
      return [invoiceIssue('connection_paused', 'source.connection')];
    case 'disconnected':
      return [invoiceIssue('connection_disconnected', 'source.connection')];
    case 'reauthorization_required':
      return [invoiceIssue('reauthorization_required', 'source.connection')];
  }
}

/** An unavailable fact is reported once, with the mapper's reason when it gave one for that path. */
function withoutExplainedPaths(found: readonly CategorizedIssue[], known: readonly CategorizedIssue[]): CategorizedIssue[] {
  const explained = new Set(known.map((i) => i.path));
  return found.filter((i) => !(i.code === 'fact_unavailable' && explained.has(i.path)));
}

function dedupe(issues: readonly CategorizedIssue[]): CategorizedIssue[] {
  const seen = new Set<string>();
  return issues.filter((i) => {
    const key = `${i.code}\u0000${i.path}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
