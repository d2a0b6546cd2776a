import { useState } from 'preact/hooks';
import { ReportStatusSchema, type ReportStatus } from '../../../../contract/payment-reports.js';
import { api } from '../api.js';
import { ErrorBox, Form, Id, Money, PagedList, Select, TextInput, Time, DetailSection } from '../components.js';
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
          <table>
            <thead>
              <tr>
                <th scope="col">Occurred</th>
                <th scope="col">Provider</th>
                <th scope="col">Provider payment</th>
                <th scope="col">Status</th>
                <th scope="col">Amount</th>
                <th scope="col">Captured</th>
                <th scope="col">Refunded</th>
                <th scope="col">Observations</th>
                <th scope="col">
                  <span class="sr-only">Details</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {payments.map((p) => (
                <tr key={p.id} class={p.id === selected ? 'selected' : undefined}>
                  <td>
                    <Time iso={p.occurredAt} />
                  </td>
                  <td>{p.provider}</td>
                  <td>
                    <code>{p.providerPaymentId ?? p.attemptId ?? '—'}</code>
                  </td>
                  <td>{p.status}</td>
                  <td>
                    <Money minor={p.amountMinor} currency={p.currency} />
                  </td>
                  <td>
                    <Money minor={p.capturedAmountMinor} currency={p.currency} />
                  </td>
                  <td>
                    <Money minor={p.refundedAmountMinor} currency={p.currency} />
                  </td>
                  <td>{p.observationCount}</td>
                  <td>
                    <button type="button" onClick={() => setSelected(p.id)} aria-label={`Details of payment ${p.id.slice(0, 8)}`}>
                      Details
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </PagedList>
      {selected && <PaymentDetail id={selected} />}
    </>
  );
}

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
            <dd>{[d.payment.attemptId, d.payment.orderId, d.payment.chargeId].map((x) => x ?? '—').join(' / ')}</dd>
            <dt>Enrichment request</dt>
            <dd>{d.payment.enrichmentRequestId ? <Id id={d.payment.enrichmentRequestId} /> : '—'}</dd>
            <dt>Occurred</dt>
            <dd>
              <Time iso={d.payment.occurredAt} />
            </dd>
          </dl>
          <h3>Observation history</h3>
          <table>
            <thead>
              <tr>
                <th scope="col">Occurred</th>
                <th scope="col">Received</th>
                <th scope="col">Event</th>
                <th scope="col">Status</th>
                <th scope="col">Amount</th>
                <th scope="col">Captured</th>
                <th scope="col">Refunded</th>
                <th scope="col">Current</th>
              </tr>
            </thead>
            <tbody>
              {d.observations.map((o) => (
                <tr key={o.id}>
                  <td>
                    <Time iso={o.occurredAt} />
                  </td>
                  <td>
                    <Time iso={o.receivedAt} />
                  </td>
                  <td>
                    <code>{o.eventId}</code>
                  </td>
                  <td>{o.status}</td>
                  <td>
                    <Money minor={o.amountMinor} currency={o.currency} />
                  </td>
                  <td>
                    <Money minor={o.capturedAmountMinor} currency={o.currency} />
                  </td>
                  <td>
                    <Money minor={o.refundedAmountMinor} currency={o.currency} />
                  </td>
                  <td>{o.current ? 'yes' : ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
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
          <table>
            <thead>
              <tr>
                <th scope="col">Recorded</th>
                <th scope="col">Kind</th>
                <th scope="col">Expected</th>
                <th scope="col">Observed</th>
                <th scope="col">Enrichment request</th>
                <th scope="col">Integration</th>
                <th scope="col">Observation</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((x) => (
                <tr key={x.id}>
                  <td>
                    <Time iso={x.createdAt} />
                  </td>
                  <td>{x.kind}</td>
                  <td>
                    <MismatchValue kind={x.kind} value={x.expected} />
                  </td>
                  <td>
                    <MismatchValue kind={x.kind} value={x.observed} />
                  </td>
                  <td>
                    <Id id={x.enrichmentRequestId} />
                  </td>
                  <td>
                    <Id id={x.integrationId} />
                  </td>
                  <td>
                    <Id id={x.observationId} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </PagedList>
    </>
  );
}
