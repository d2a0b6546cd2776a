import { api, type Outputs } from '../api.js';
import { Empty, ErrorBox, Table } from '../components.js';
import { formatMinor } from '../format.js';
import { useQuery } from '../hooks.js';
import { qualificationItems } from './qualification-items.js';

type LevelRow = Outputs['qualification']['summary']['rows'][number];
type InvoiceQualification = NonNullable<Outputs['invoices']['get']['qualification']>;
export type Level = 'product_3' | 'partial' | 'none' | 'not_assessed';

/** docs/network-qualification.md, "The level", in the order the bars stack (bottom first). */
export const LEVELS: readonly Level[] = ['product_3', 'partial', 'none', 'not_assessed'];
export const LEVEL_LABEL: Record<Level, string> = {
  product_3: 'Product 3',
  partial: 'partial',
  none: 'none',
  not_assessed: 'not assessed',
};
export const levelOf = (level: LevelRow['level']): Level => level ?? 'not_assessed';
const sourceText = (s: { objectType: string; externalId: string; field: string } | null) =>
  s ? `${s.objectType} ${s.externalId} · ${s.field}` : 'not known';

const W = 640;
const H = 200;
const PAD = { left: 8, right: 8, top: 12, bottom: 28 };

/**
 * Preparations per month by the level each recorded when it was saved, and the fixes that hold most volume back
 * (`qualification.summary`, `qualification.fixes`), beside the evidence ledger and with its filters.
 */
export function QualificationFigures({
  filters,
  months,
}: {
  filters: { organizationId?: string; integrationId?: string; from: string; to: string };
  months: string[];
}) {
  const key = JSON.stringify(filters);
  const summary = useQuery(() => api.qualification.summary.query(filters), [key]);
  const fixes = useQuery(() => api.qualification.fixes.query({ ...filters, limit: 10 }), [key]);
  const rows = summary.data?.rows ?? [];
  return (
    <section aria-label="Qualification by month">
      <h3>Network qualification (Product 3)</h3>
      <ErrorBox error={summary.error ?? fixes.error} />
      {summary.data && rows.length === 0 && <Empty>No preparations in these months.</Empty>}
      {rows.length > 0 && (
        <>
          <LevelChart rows={rows} months={months} />
          <Table
            rows={rows}
            rowKey={(r) => `${r.month}|${r.level}|${r.currency}`}
            columns={[
              { header: 'Month', rowHeader: true, cell: (r) => r.month },
              { header: 'Level', cell: (r) => LEVEL_LABEL[levelOf(r.level)] },
              { header: 'Preparations', cell: (r) => r.preparations },
              { header: 'Verified', cell: (r) => r.verifiedPreparations },
              { header: 'Verified volume', cell: (r) => formatMinor(BigInt(r.verifiedNetMinor), r.currency) },
            ]}
          />
        </>
      )}
      <section aria-label="Fixes at the source">
        <h4>Fixes at the source, by the enhanced volume they would lift</h4>
        {fixes.data && fixes.data.fixes.length === 0 ? (
          <Empty>Nothing to fix in these months.</Empty>
        ) : (
          <Table
            rows={fixes.data?.fixes ?? []}
            rowKey={(f) => `${f.rank}`}
            columns={[
              { header: '#', cell: (f) => f.rank },
              { header: 'Fix', rowHeader: true, cell: (f) => <code>{sourceText(f.source)}</code> },
              { header: 'Why', cell: (f) => `${f.kind === 'missing' ? 'missing' : 'risk'}: ${f.code}` },
              { header: 'Lifts alone', cell: (f) => formatMinor(BigInt(f.liftsMinor), f.currency) },
              { header: 'With other fixes', cell: (f) => formatMinor(BigInt(f.withOtherFixesMinor), f.currency) },
              { header: 'Invoices', cell: (f) => `${f.invoiceCount} (${f.preparations} preparations)` },
              {
                header: 'Behind it',
                // The invoices the figures come from (source ids), the largest first; each leads to its preparations.
                cell: (f) => f.invoices.map((v) => `${v.ledgerInvoiceId}${v.alone ? '' : ' (with others)'}`).join(', '),
              },
            ]}
          />
        )}
      </section>
    </section>
  );
}

/** A stacked bar of preparations per month, one segment per level (hand-made SVG, as the evidence chart). */
function LevelChart({ rows, months }: { rows: readonly LevelRow[]; months: string[] }) {
  const counts = new Map<string, number>();
  for (const r of rows) counts.set(`${r.month}|${levelOf(r.level)}`, (counts.get(`${r.month}|${levelOf(r.level)}`) ?? 0) + r.preparations);
  const value = (month: string, level: Level) => counts.get(`${month}|${level}`) ?? 0;
  const max = Math.max(1, ...months.map((m) => LEVELS.reduce((sum, l) => sum + value(m, l), 0)));
  const plotH = H - PAD.top - PAD.bottom;
  const slot = (W - PAD.left - PAD.right) / Math.max(months.length, 1);
  const barW = Math.min(48, slot * 0.7);
  return (
    <figure class="ev-chart">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-labelledby="q-chart-title">
        <title id="q-chart-title">Preparations per month by qualification level</title>
        <line class="ev-axis" x1={PAD.left} x2={W - PAD.right} y1={H - PAD.bottom} y2={H - PAD.bottom} />
        {months.map((month, i) => {
          const x = PAD.left + i * slot + (slot - barW) / 2;
          let y = H - PAD.bottom;
          return (
            <g key={month} data-month={month}>
              {LEVELS.map((level) => {
                const v = value(month, level);
                const h = (v / max) * plotH;
                y -= h;
                return v === 0 ? null : (
                  <rect key={level} class={`q-${level}`} data-level={level} x={x} y={y} width={barW} height={Math.max(h, 1)}>
                    <title>{`${month} ${LEVEL_LABEL[level]}: ${v} preparations`}</title>
                  </rect>
                );
              })}
              <text class="ev-label" x={x + barW / 2} y={H - PAD.bottom + 16} text-anchor="middle">
                {month}
              </text>
            </g>
          );
        })}
      </svg>
      <figcaption>
        {LEVELS.map((level) => (
          <span key={level} class="ev-legend">
            <svg width="12" height="12" aria-hidden="true">
              <rect class={`q-${level}`} width="12" height="12" />
            </svg>{' '}
            {LEVEL_LABEL[level]}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}

/**
 * An invoice's qualification per provider output: its level; for each field the source lacks and each risk, the source
 * record and field to fix; then the fields the output does not send whatever the source holds.
 */
export function InvoiceQualificationSection({ qualification }: { qualification: InvoiceQualification | null }) {
  if (qualification === null) return <Empty>Not computed for this snapshot (mapped before qualification existed).</Empty>;
  const providers = ['gwa', 'gwb', 'gwc'] as const;
  return (
    <section aria-label="Qualification">
      {providers.map((provider) => {
        const q = qualification[provider];
        const items = qualificationItems(provider, q);
        return (
          <div key={provider} class="issue-group" data-provider={provider}>
            <h4>
              {provider}: <span class={`badge q-${q.level}`}>{LEVEL_LABEL[q.level]}</span>
            </h4>
            {items.length === 0 ? (
              <p class="muted">Nothing to fix.</p>
            ) : (
              <ul>
                {items.map((i) =>
                  i.fix ? (
                    <li key={i.key}>
                      Fix <code>{sourceText(i.source)}</code> — {i.what} <code class="muted">{i.path}</code>
                    </li>
                  ) : (
                    <li key={i.key}>
                      {i.what}{' '}
                      {i.source && (
                        <>
                          Source field <code>{sourceText(i.source)}</code>{' '}
                        </>
                      )}
                      <code class="muted">{i.path}</code>
                    </li>
                  ),
                )}
              </ul>
            )}
          </div>
        );
      })}
    </section>
  );
}
