import type { Outputs } from '../api.js';

type ProviderQualification = NonNullable<Outputs['invoices']['get']['qualification']>['gwa'];
type Missing = ProviderQualification['missing'][number];
type Risk = ProviderQualification['risks'][number];

/** One line of an output's qualification in the invoice detail. */
export interface QualificationItem {
  key: string;
  /** A fix at the source: the source record and field to change. Otherwise the source field is where the value would be. */
  fix: boolean;
  what: string;
  path: string;
  source: Missing['source'];
}

/**
 * Why a missing field is not sent when fixing the source does not help (docs/network-qualification.md, "The level"):
 * only `not_in_source` is a fix.
 */
const NOT_SENT: Record<Exclude<Missing['reason'], 'not_in_source'>, string> = {
  not_mapped: 'this service does not take it from the source for this output',
  not_carried: 'this output has no place for it',
};

/**
 * An output's items, the fixes first (the fields the source lacks, then the risks), then the fields the output does not
 * send whatever the source holds: labelling those "Fix" sent merchants to change values no output would read.
 */
export function qualificationItems(
  provider: string,
  q: { readonly missing: readonly Missing[]; readonly risks: readonly Risk[] },
): QualificationItem[] {
  const missing = (m: Missing) => ({ key: `m:${m.path}:${m.field}`, path: m.path, source: m.source });
  return [
    ...q.missing
      .filter((m) => m.reason === 'not_in_source')
      .map((m) => ({ ...missing(m), fix: true, what: `missing ${m.field} (${m.reason})` })),
    ...q.risks.map((r) => ({ key: `r:${r.path}:${r.code}`, fix: true, what: `${r.code}: ${r.message}`, path: r.path, source: r.source })),
    ...q.missing.flatMap((m) =>
      m.reason === 'not_in_source'
        ? []
        : [{ ...missing(m), fix: false, what: `Not sent by ${provider}: ${m.field} (${m.reason}) — ${NOT_SENT[m.reason]}.` }],
    ),
  ];
}
