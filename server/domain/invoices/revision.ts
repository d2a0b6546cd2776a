import { createHash } from 'node:crypto';
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
    input.mappingVersions.map((m) => [m.id, m.version, m.revoked]).sort(compare),
    input.dependencyVersions.map((d) => [d.objectType, d.externalId, d.version]).sort(compare),
  ]);
  return `r1_${createHash('sha256').update(canonical).digest('hex').slice(0, 40)}`;
}

function compare(a: readonly unknown[], b: readonly unknown[]): number {
  const left = JSON.stringify(a);
  const right = JSON.stringify(b);
  return left < right ? -1 : left > right ? 1 : 0;
}
