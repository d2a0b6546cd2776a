import { useState } from 'preact/hooks';
import { ReportStatusSchema, type ReportStatus } from '../../../../contract/payment-reports.js';
import { api } from '../api.js';
import { DetailSection, DetailsButton, ErrorBox, Form, Id, Money, PagedList, Select, Table, TextInput, Time } from '../components.js';
import { usePaged, useQuery } from '../hooks.js';
import { OrganizationPicker, useSelection } from '../selection.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function PaymentsView() {
  const [integrationId, setIntegrationId] = useState('');
  const [status, setStatus] = useState<ReportStatus | ''>('');
  const [selected, setSelected] = useState<string | undefined>();
  const filterId = UUID.test(integrationId.trim()) ? integrationId.trim() : '';
  const paged = usePaged(
    async (cursor) => {
      const page = await api.payments.list.query({
        ...(filterId ? { integrationId: filterId } : {}),
        ...(status ? { status } : {}),
        ...(cursor ? { cursor } : {}),
      });
      return { items: page.payments, nextCursor: page.nextCursor };
    },
    [filterId, status],
  );
  return (
    <>
      <Form label="Filter payments" onSubmit={() => undefined}>
        <TextInput
          label="Integration id"
          value={integrationId}
          onInput={setIntegrationId}
          type="search"
          hint="A full integration id, or empty for all"
        />
        <Select label="Status" value={status} any="Any status" options={ReportStatusSchema.options} onChange={setStatus} />
      </Form>
      <PagedList paged={paged} caption="Payments" empty="No payments match these filters.">
        {(payments) => (
          <Table
            rows={payments}
            rowKey={(p) => p.id}
            selected={selected}
            columns={[
              { header: 'Occurred', cell: (p) => <Time iso={p.occurredAt} /> },
              { header: 'Provider', cell: (p) => p.provider },
              { header: 'Provider payment', cell: (p) => <code>{p.providerPaymentId ?? p.attemptId ?? '—'}</code> },
              { header: 'Status', cell: (p) => p.status },
              { header: 'Amount', cell: (p) => <Money minor={p.amountMinor} currency={p.currency} /> },
              { header: 'Captured', cell: (p) => <Money minor={p.capturedAmountMinor} currency={p.currency} /> },
              { header: 'Refunded', cell: (p) => <Money minor={p.refundedAmountMinor} currency={p.currency} /> },
              { header: 'Observations', cell: (p) => p.observationCount },
              {
                header: 'Details',
                hiddenHeader: true,
                cell: (p) => <DetailsButton label={`Details of payment ${p.id.slice(0, 8)}`} onClick={() => setSelected(p.id)} />,
              },
            ]}
          />
        )}
      </PagedList>
      {selected && <PaymentDetail id={selected} />}
    </>
  );
}

/** Where an observation came from: the provider's own signed delivery, or what the merchant reported. */
const EVIDENCE_LABEL = { provider_verified: 'provider-verified', merchant_report: 'merchant report' } as const;

function PaymentDetail({ id }: { id: string }) {
  const detail = useQuery(() => api.payments.get.query({ id }), [id]);
  const d = detail.data;
  return (
    <DetailSection label="Payment detail" subject={id}>
      <h2>
        Payment <Id id={id} />
      </h2>
      <ErrorBox error={detail.error} />
      {d && (
        <>
          <h3>Projection (current state)</h3>
          <dl class="facts">
            <dt>Status</dt>
            <dd>{d.payment.status ?? '—'}</dd>
            <dt>Amount</dt>
            <dd>
              <Money minor={d.payment.amountMinor} currency={d.payment.currency} />
            </dd>
            <dt>Captured</dt>
            <dd>
              <Money minor={d.payment.capturedAmountMinor} currency={d.payment.currency} />
            </dd>
            <dt>Refunded</dt>
            <dd>
              <Money minor={d.payment.refundedAmountMinor} currency={d.payment.currency} />
            </dd>
            <dt>Attempt / order / charge</dt>
            <dd>
              {[d.payment.attemptId, d.payment.orderId, d.payment.chargeId].map((x) => x ?? '—').join(' / ')}
              {d.payment.attemptProvisional && <span class="muted"> (provisional: no merchant report yet)</span>}
            </dd>
            <dt>Enrichment request</dt>
            <dd>{d.payment.enrichmentRequestId ? <Id id={d.payment.enrichmentRequestId} /> : '—'}</dd>
            <dt>Occurred</dt>
            <dd>
              <Time iso={d.payment.occurredAt} />
            </dd>
          </dl>
          <h3>Observation history</h3>
          <Table
            rows={d.observations}
            rowKey={(o) => o.id}
            columns={[
              { header: 'Occurred', cell: (o) => <Time iso={o.occurredAt} /> },
              { header: 'Received', cell: (o) => <Time iso={o.receivedAt} /> },
              { header: 'Event', cell: (o) => <code>{o.eventId}</code> },
              { header: 'Evidence', cell: (o) => EVIDENCE_LABEL[o.evidence] },
              { header: 'Status', cell: (o) => o.status },
              { header: 'Amount', cell: (o) => <Money minor={o.amountMinor} currency={o.currency} /> },
              { header: 'Captured', cell: (o) => <Money minor={o.capturedAmountMinor} currency={o.currency} /> },
              { header: 'Refunded', cell: (o) => <Money minor={o.refundedAmountMinor} currency={o.currency} /> },
              { header: 'Current', cell: (o) => (o.current ? 'yes' : '') },
            ]}
          />
        </>
      )}
    </DetailSection>
  );
}

const KINDS = ['amount_mismatch', 'currency_mismatch'] as const;

/** An exception stores the two sides as text: minor units for amounts (no currency with them), codes for currencies. */
const MismatchValue = ({ kind, value }: { kind: string; value: string }) => (
  <>
    <code>{value}</code>
    {kind === 'amount_mismatch' && <span class="muted"> minor units</span>}
  </>
);

export function CorrelationExceptionsView() {
  const { organizationId } = useSelection();
  const [kind, setKind] = useState<(typeof KINDS)[number] | ''>('');
  const paged = usePaged(
    async (cursor) => {
      const page = await api.correlationExceptions.list.query({
        ...(organizationId ? { organizationId } : {}),
        ...(kind ? { kind } : {}),
        ...(cursor ? { cursor } : {}),
      });
      return { items: page.correlationExceptions, nextCursor: page.nextCursor };
    },
    [organizationId, kind],
  );
  return (
    <>
      <Form label="Filter correlation exceptions" onSubmit={() => undefined}>
        <OrganizationPicker any="Any organization" />
        <Select label="Kind" value={kind} any="Any kind" options={KINDS} onChange={setKind} />
      </Form>
      <p class="muted">A reported payment whose amount or currency differs from the prepared (enriched) request it names.</p>
      <PagedList paged={paged} caption="Correlation exceptions" empty="No correlation exceptions.">
        {(rows) => (
          <Table
            rows={rows}
            rowKey={(x) => x.id}
            columns={[
              { header: 'Recorded', cell: (x) => <Time iso={x.createdAt} /> },
              { header: 'Kind', cell: (x) => x.kind },
              { header: 'Expected', cell: (x) => <MismatchValue kind={x.kind} value={x.expected} /> },
              { header: 'Observed', cell: (x) => <MismatchValue kind={x.kind} value={x.observed} /> },
              { header: 'Enrichment request', cell: (x) => <Id id={x.enrichmentRequestId} /> },
              { header: 'Integration', cell: (x) => <Id id={x.integrationId} /> },
              { header: 'Observation', cell: (x) => <Id id={x.observationId} /> },
            ]}
          />
        )}
      </PagedList>
    </>
  );
}
