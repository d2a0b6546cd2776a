import { hash } from 'node:crypto';
import type { SourceObjectType } from '../../../contract/invoices.js';

export interface RevisionInput {
  /** The invoice's SyncToken. */
  readonly sourceVersion: string | null;
  readonly mapperVersion: string;
  readonly settingsVersion: number;
  /** The mapping in effect (or revoked) per referenced item. */
  readonly mappingVersions: readonly { readonly id: string; readonly version: number; readonly revoked: boolean }[];
  /** SyncTokens of the Items and Preferences the mapping read: a renamed Item changes the stored lines. */
  readonly dependencyVersions: readonly {
    readonly objectType: SourceObjectType;
    readonly externalId: string;
    readonly version: string | null;
  }[];
}

/**
 * Deterministic opaque revision (spec: preparation pins `revision`): the same
 * inputs in any order give the same string; any change gives another.
 */
export function revisionOf(input: RevisionInput): string {
  const canonical = JSON.stringify([
    input.sourceVersion,
    input.mapperVersion,
    input.settingsVersion,
    sortedByText(input.mappingVersions.map((m) => [m.id, m.version, m.revoked])),
    sortedByText(input.dependencyVersions.map((d) => [d.objectType, d.externalId, d.version])),
  ]);
  return `r1_${hash('sha256', canonical).slice(0, 40)}`;
}

/** Tuples in the order of their JSON text (each serialized once, not once per comparison). */
function sortedByText(tuples: readonly unknown[][]): unknown[][] {
  return tuples
    .map((tuple) => ({ tuple, key: JSON.stringify(tuple) }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map((e) => e.tuple);
}
