import { useState } from 'preact/hooks';
import { api, session, shownError, type Outputs, type ShownError } from '../api.js';
import {
  DetailSection,
  DetailsButton,
  Empty,
  ErrorBox,
  Form,
  Id,
  Maybe,
  Money,
  PagedList,
  Select,
  Table,
  TextInput,
  Time,
} from '../components.js';
import { formatMinor } from '../format.js';
import { usePaged, useQuery } from '../hooks.js';
import { IntegrationPicker, OrganizationPicker, useSelection } from '../selection.js';
import { LEVEL_LABEL, LEVELS, levelOf, QualificationFigures, type Level } from './qualification.js';

type Summary = Outputs['evidence']['summary'];
type SummaryRow = Summary['rows'][number];
type EvidenceRow = Outputs['evidence']['list']['rows'][number];

/** docs/evidence.md, "States", in the order the bars stack (bottom first). */
const STATES = ['verified', 'reported_only', 'exception', 'unconfirmed', 'ordinary'] as const;
type State = (typeof STATES)[number];
const STATE_LABEL: Record<State, string> = {
  verified: 'verified',
  reported_only: 'reported only',
  exception: 'exception',
  unconfirmed: 'unconfirmed',
  ordinary: 'ordinary',
};
const SOURCE_LABEL = { provider_verified: 'provider-verified event', merchant_report: 'merchant report' } as const;

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;
const monthOf = (d: Date) => d.toISOString().slice(0, 7);
const firstInstant = (month: string) => `${month}-01T00:00:00.000Z`;
function afterMonth(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m, 1)).toISOString();
}
function monthsBack(n: number): string {
  const now = new Date();
  return monthOf(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - n, 1)));
}

/** Months are UTC calendar months of when the preparation was saved (docs/evidence.md, "Months and ranges"). */
export function EvidenceView() {
  const { organizationId, integrationId } = useSelection();
  const [fromMonth, setFromMonth] = useState(monthsBack(5));
  const [toMonth, setToMonth] = useState(monthsBack(0));
  const [state, setState] = useState<State | ''>('');
  // The qualification level each preparation recorded: the rows behind a line of the qualification figures.
  const [level, setLevel] = useState<Level | ''>('');
  const [measure, setMeasure] = useState<'volume' | 'count'>('volume');
  const [currency, setCurrency] = useState('');
  const [selected, setSelected] = useState<EvidenceRow | undefined>();
  const valid = MONTH.test(fromMonth) && MONTH.test(toMonth) && fromMonth <= toMonth;
  const filters = valid
    ? {
        ...(organizationId ? { organizationId } : {}),
        ...(integrationId ? { integrationId } : {}),
        from: firstInstant(fromMonth),
        to: afterMonth(toMonth),
      }
    : undefined;
  const key = JSON.stringify(filters ?? null);
  const summary = useQuery(() => (filters ? api.evidence.summary.query(filters) : Promise.resolve(undefined)), [key]);
  const paged = usePaged(
    async (cursor) => {
      if (!filters) return { items: [], nextCursor: null };
      const page = await api.evidence.list.query({
        ...filters,
        ...(state ? { state } : {}),
        ...(level ? { level } : {}),
        ...(cursor ? { cursor } : {}),
      });
      return { items: page.rows, nextCursor: page.nextCursor };
    },
    [key, state, level],
  );
  const rows = summary.data?.rows ?? [];
  const currencies = [...new Set(rows.map((r) => r.currency))].sort();
  const shownCurrency = currency && currencies.includes(currency) ? currency : (currencies[0] ?? '');
  return (
    <>
      <Form label="Filter evidence" onSubmit={() => undefined}>
        <OrganizationPicker any="Any organization" />
        <IntegrationPicker any="Any integration" />
        <TextInput label="From month" value={fromMonth} onInput={setFromMonth} pattern="\d{4}-\d{2}" hint="YYYY-MM, UTC" />
        <TextInput label="To month" value={toMonth} onInput={setToMonth} pattern="\d{4}-\d{2}" hint="YYYY-MM, included" />
        <Select
          label="State"
          value={state}
          any="Any state"
          options={STATES.map((s) => ({ value: s, text: STATE_LABEL[s] }))}
          onChange={setState}
        />
        <Select
          label="Qualification level"
          value={level}
          any="Any level"
          options={LEVELS.map((l) => ({ value: l, text: LEVEL_LABEL[l] }))}
          onChange={setLevel}
        />
      </Form>
      {!valid && <p class="error">Months are YYYY-MM, the first not after the last.</p>}
      <p class="muted">
        A preparation counts as <strong>verified</strong> only when it was prepared in enhanced mode and the provider's own signed event
        confirmed its capture, for the preparation's amount and currency. gwb has merchant reports only, so it is never verified. Volumes
        are net of refunds.
      </p>
      <ErrorBox error={summary.error} />
      {summary.data && rows.length === 0 && <Empty>No preparations in these months.</Empty>}
      {rows.length > 0 && (
        <section aria-label="Evidence by month">
          <div class="inline-form">
            <Select label="Currency" value={shownCurrency} options={currencies} onChange={setCurrency} />
            <Select
              label="Bars show"
              value={measure}
              options={[
                { value: 'volume', text: 'net volume' },
                { value: 'count', text: 'preparations' },
              ]}
              onChange={(v) => setMeasure(v || 'volume')}
            />
          </div>
          <EvidenceChart
            rows={rows.filter((r) => r.currency === shownCurrency)}
            months={monthRange(fromMonth, toMonth)}
            measure={measure}
          />
          <MonthTable rows={rows.filter((r) => r.currency === shownCurrency)} />
        </section>
      )}
      {filters && <QualificationFigures filters={filters} months={monthRange(fromMonth, toMonth)} />}
      {filters && <Download filters={{ ...filters, ...(state ? { state } : {}), ...(level ? { level } : {}) }} />}
      <PagedList paged={paged} caption="Preparations and their evidence" empty="No preparations match these filters.">
        {(items) => (
          <Table
            rows={items}
            rowKey={(r) => r.preparationId}
            selected={selected?.preparationId}
            columns={[
              { header: 'Saved', cell: (r) => <Time iso={r.createdAt} /> },
              { header: 'State', cell: (r) => <span class={`badge ev-${r.state}`}>{STATE_LABEL[r.state]}</span> },
              { header: 'Provider', cell: (r) => r.provider },
              { header: 'Level', cell: (r) => LEVEL_LABEL[levelOf(r.qualificationLevel)] },
              { header: 'Invoice', cell: (r) => <Maybe>{r.invoice.number}</Maybe> },
              { header: 'Amount', cell: (r) => <Money minor={r.amountMinor} currency={r.currency} /> },
              {
                header: 'Evidence',
                cell: (r) =>
                  r.evidence ? SOURCE_LABEL[r.evidence.source] : <Maybe>{r.ageHours === null ? null : `${r.ageHours} h old`}</Maybe>,
              },
              { header: 'Net', cell: (r) => <Money minor={r.netAmountMinor} currency={r.payment?.currency ?? r.currency} /> },
              { header: 'Exceptions', cell: (r) => r.exceptions.length || '' },
              {
                header: 'Chain',
                hiddenHeader: true,
                cell: (r) => <DetailsButton label={`Chain of preparation ${r.preparationId.slice(0, 8)}`} onClick={() => setSelected(r)} />,
              },
            ]}
          />
        )}
      </PagedList>
      {selected && <Chain row={selected} />}
    </>
  );
}

function monthRange(from: string, to: string): string[] {
  const months: string[] = [];
  for (let m = from; m <= to && months.length < 120; m = afterMonth(m).slice(0, 7)) months.push(m);
  return months;
}

/** Per month, the figures of every integration in the filter added up (exact: minor-unit strings summed as bigint). */
function byMonth(rows: readonly SummaryRow[]) {
  const months = new Map<string, { counts: Record<State, number>; net: Record<State, bigint> }>();
  for (const r of rows) {
    const m = months.get(r.month) ?? {
      counts: Object.fromEntries(STATES.map((s) => [s, 0])) as Record<State, number>,
      net: Object.fromEntries(STATES.map((s) => [s, 0n])) as Record<State, bigint>,
    };
    for (const s of STATES) {
      m.counts[s] += r.states[s].count;
      m.net[s] += BigInt(r.states[s].netMinor);
    }
    months.set(r.month, m);
  }
  return months;
}

const W = 640;
const H = 220;
const PAD = { left: 8, right: 8, top: 12, bottom: 28 };

/**
 * A stacked bar per month, one segment per state (hand-made SVG: docs/decisions.md, "Evidence chart"). Heights are
 * proportions of the tallest month computed with bigint, so large volumes draw without float sums; every segment
 * names its exact figure (title), and the table below holds the same figures as text.
 */
function EvidenceChart({ rows, months, measure }: { rows: readonly SummaryRow[]; months: string[]; measure: 'volume' | 'count' }) {
  const data = byMonth(rows);
  const currency = rows[0]?.currency ?? 'usd';
  const value = (month: string, s: State): bigint => {
    const m = data.get(month);
    if (!m) return 0n;
    return measure === 'volume' ? m.net[s] : BigInt(m.counts[s]);
  };
  const totals = months.map((month) => STATES.reduce((sum, s) => sum + value(month, s), 0n));
  const max = totals.reduce((a, b) => (b > a ? b : a), 0n);
  const plotH = H - PAD.top - PAD.bottom;
  const slot = (W - PAD.left - PAD.right) / Math.max(months.length, 1);
  const barW = Math.min(48, slot * 0.7);
  const px = (v: bigint) => (max === 0n ? 0 : (Number((v * 100000n) / max) / 100000) * plotH);
  const figure = (v: bigint) => (measure === 'volume' ? formatMinor(v, currency) : `${v} preparations`);
  return (
    <figure class="ev-chart">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-labelledby="ev-chart-title">
        <title id="ev-chart-title">{`${measure === 'volume' ? `Net volume (${currency.toUpperCase()})` : 'Preparations'} per month by evidence state`}</title>
        <line class="ev-axis" x1={PAD.left} x2={W - PAD.right} y1={H - PAD.bottom} y2={H - PAD.bottom} />
        {months.map((month, i) => {
          const x = PAD.left + i * slot + (slot - barW) / 2;
          let y = H - PAD.bottom;
          return (
            <g key={month} data-month={month}>
              {STATES.map((s) => {
                const v = value(month, s);
                const h = px(v);
                y -= h;
                return v === 0n ? null : (
                  <rect key={s} class={`ev-${s}`} data-state={s} x={x} y={y} width={barW} height={Math.max(h, 1)}>
                    <title>{`${month} ${STATE_LABEL[s]}: ${figure(v)}`}</title>
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
        {STATES.map((s) => (
          <span key={s} class="ev-legend">
            <svg width="12" height="12" aria-hidden="true">
              <rect class={`ev-${s}`} width="12" height="12" />
            </svg>{' '}
            {STATE_LABEL[s]}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}

/** The chart's figures as text, per integration and month: counts, net volumes and the exact verified share. */
function MonthTable({ rows }: { rows: readonly SummaryRow[] }) {
  return (
    <Table
      rows={rows}
      rowKey={(r) => `${r.integrationId}|${r.month}|${r.currency}`}
      columns={[
        { header: 'Month', rowHeader: true, cell: (r) => r.month },
        {
          header: 'Integration',
          cell: (r) => (
            <>
              <Id id={r.integrationId} /> {r.provider}
            </>
          ),
        },
        ...STATES.map((s) => ({
          header: STATE_LABEL[s],
          cell: (r: SummaryRow) => (
            <>
              {r.states[s].count} · <Money minor={r.states[s].netMinor} currency={r.currency} />
            </>
          ),
        })),
        {
          header: 'Verified share',
          cell: (r) => (
            <span title={`${r.verifiedShare.numerator} / ${r.verifiedShare.denominator} minor units`}>
              {r.verifiedShare.decimal === null ? '—' : `${r.verifiedShare.decimal}`}
            </span>
          ),
        },
      ]}
    />
  );
}

/**
 * The CSV comes from a plain GET route that needs the admin token in a header, so a link cannot fetch it: the file
 * is fetched here and handed to the browser as a download.
 */
function Download({
  filters,
}: {
  filters: { organizationId?: string; integrationId?: string; from: string; to: string; state?: State; level?: Level };
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ShownError | undefined>();
  const run = async () => {
    setBusy(true);
    setError(undefined);
    try {
      const where = await api.evidence.export.query(filters);
      const res = await fetch(where.path, { headers: { authorization: `Bearer ${session.token() ?? ''}` } });
      if (!res.ok) throw new Error(`The download failed (${res.status})`);
      const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? 'evidence.csv';
      const url = URL.createObjectURL(await res.blob());
      const a = document.createElement('a');
      a.href = url;
      a.download = name;
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (err) {
      setError(shownError(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div class="inline-form">
      <button type="button" disabled={busy} onClick={() => void run()}>
        {busy ? 'Preparing CSV…' : 'Download CSV'}
      </button>
      <ErrorBox error={error} />
    </div>
  );
}

/** One preparation's chain: preparation → invoice snapshot and revision → payment → evidence → refunds → exceptions. */
function Chain({ row: r }: { row: EvidenceRow }) {
  return (
    <DetailSection label="Evidence chain" subject={r.preparationId}>
      <h2>
        Preparation <Id id={r.preparationId} /> · <span class={`badge ev-${r.state}`}>{STATE_LABEL[r.state]}</span>
      </h2>
      <dl class="facts">
        <dt>Preparation</dt>
        <dd>
          <code>{r.preparationId}</code> ({r.mode}, {r.provider} {r.environment}, saved <Time iso={r.createdAt} />, month {r.month})
        </dd>
        <dt>Invoice</dt>
        <dd>
          <Maybe>{r.invoice.number}</Maybe> (source id {r.invoice.ledgerInvoiceId}, <Id id={r.invoice.id} />)
        </dd>
        <dt>Snapshot / revision</dt>
        <dd>
          <Id id={r.snapshotId} /> / <code>{r.revision}</code>
        </dd>
        <dt>Prepared amount</dt>
        <dd>
          <Money minor={r.amountMinor} currency={r.currency} />
        </dd>
        <dt>Payment</dt>
        <dd>
          {r.payment ? (
            <>
              <code>{r.payment.id}</code> · {r.payment.status ?? '—'} ·{' '}
              <Money minor={r.payment.amountMinor} currency={r.payment.currency} /> · provider id{' '}
              <Maybe>{r.payment.providerPaymentId}</Maybe> · attempt <code>{r.payment.attemptId}</code>
            </>
          ) : (
            <span class="muted">none names this preparation{r.ageHours !== null ? ` (${r.ageHours} h since it was saved)` : ''}</span>
          )}
        </dd>
        <dt>Capture evidence</dt>
        <dd>
          {r.evidence ? (
            <>
              {SOURCE_LABEL[r.evidence.source]} <code>{r.evidence.eventId}</code> at <Time iso={r.evidence.at} /> (observation{' '}
              <Id id={r.evidence.observationId} />)
            </>
          ) : (
            <span class="muted">no capture yet</span>
          )}
        </dd>
        <dt>Captured / refunded / net</dt>
        <dd>
          <Money minor={r.capturedAmountMinor} currency={r.payment?.currency ?? r.currency} /> /{' '}
          <Money minor={r.refundedAmountMinor} currency={r.payment?.currency ?? r.currency} /> /{' '}
          <Money minor={r.netAmountMinor} currency={r.payment?.currency ?? r.currency} />
        </dd>
        <dt>Exceptions</dt>
        <dd>
          {r.exceptions.length === 0 ? (
            <span class="muted">none</span>
          ) : (
            <ul>
              {r.exceptions.map((e) => (
                <li key={`${e.observationId}|${e.kind}|${e.at}`}>
                  {e.kind}: expected <code>{e.expected}</code>, observed <code>{e.observed}</code> (observation <Id id={e.observationId} />,{' '}
                  <Time iso={e.at} />)
                </li>
              ))}
            </ul>
          )}
        </dd>
      </dl>
    </DetailSection>
  );
}
