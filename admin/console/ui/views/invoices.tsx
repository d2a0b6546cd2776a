import { useState } from 'preact/hooks';
import { PaymentProviderSchema, type PaymentProvider } from '../../../../contract/common/access.js';
import { api, type Outputs } from '../api.js';
import { InvoiceQualificationSection } from './qualification.js';
import { DetailSection, DetailsButton, Empty, ErrorBox, Form, Id, Maybe, Money, PagedList, Select, Table, Time } from '../components.js';
import { usePaged, useQuery } from '../hooks.js';
import { PoField } from './connections.js';
import { ConfirmMapping, MappingsTable, type StoredLine } from './item-mappings.js';

type Detail = Outputs['invoices']['get'];
type Issue = Detail['issues'][number];

export function InvoicesView() {
  const [connectionId, setConnectionId] = useState('');
  const [provider, setProvider] = useState<PaymentProvider | ''>('');
  const [ready, setReady] = useState<'' | 'yes' | 'no'>('');
  const [selected, setSelected] = useState<string | undefined>();
  const [changed, setChanged] = useState(0);
  const connections = useQuery(() => api.connections.list.query({}), [changed]);
  const connection = connections.data?.find((c) => c.id === connectionId);
  const paged = usePaged(
    async (cursor) => {
      const page = await api.invoices.list.query({
        ...(connectionId ? { connectionRowId: connectionId } : {}),
        ...(provider ? { provider } : {}),
        ...(ready ? { ready: ready === 'yes' } : {}),
        ...(cursor ? { cursor } : {}),
      });
      return { items: page.invoices, nextCursor: page.nextCursor };
    },
    [connectionId, provider, ready, changed],
  );
  return (
    <>
      <Form label="Filter invoices" onSubmit={() => undefined}>
        <Select
          label="Connection"
          value={connectionId}
          any="Every connection"
          options={(connections.data ?? []).map((c) => ({ value: c.id, text: `${c.connectionId} (${c.status})` }))}
          onChange={(v) => {
            setConnectionId(v);
            setSelected(undefined);
          }}
        />
        <Select label="Provider" value={provider} any="Every provider" options={PaymentProviderSchema.options} onChange={setProvider} />
        <Select
          label="Ready"
          value={ready}
          any="Ready or not"
          options={[
            { value: 'yes', text: 'Ready' },
            { value: 'no', text: 'Not ready' },
          ]}
          onChange={setReady}
        />
      </Form>
      {connection && (
        <div class="panel">
          <p>
            Purchase-order field of <code>{connection.connectionId}</code> (settings version {connection.settingsVersion}); saving remaps
            every invoice of the connection:
          </p>
          <PoField key={connection.id + connection.settingsVersion} connection={connection} onSaved={() => setChanged((c) => c + 1)} />
        </div>
      )}
      <PagedList
        paged={paged}
        caption="Invoices"
        empty="No invoices match these filters (a page can be empty when the ready filter removes all of it)."
      >
        {(invoices) => (
          <Table
            rows={invoices}
            rowKey={(i) => i.id}
            selected={selected}
            columns={[
              { header: 'Number', cell: (i) => <Maybe>{i.invoiceNumber}</Maybe> },
              { header: 'Status', cell: (i) => i.status },
              { header: 'Total', cell: (i) => <Money minor={i.totalAmountMinor} currency={i.currency} /> },
              {
                header: `Ready${provider ? ` for ${provider}` : ' for every provider'}`,
                cell: (i) => <span class={`badge ${i.ready ? 'ready' : 'not-ready'}`}>{i.ready ? 'ready' : 'not ready'}</span>,
              },
              { header: 'Issues', cell: (i) => i.issues.length },
              { header: 'Checked through', cell: (i) => <Time iso={i.checkedThrough} /> },
              {
                header: 'Details',
                hiddenHeader: true,
                cell: (i) => <DetailsButton label={`Details of invoice ${i.invoiceNumber ?? i.id}`} onClick={() => setSelected(i.id)} />,
              },
            ]}
          />
        )}
      </PagedList>
      {selected && <InvoiceDetail id={selected} provider={provider} onChanged={() => setChanged((c) => c + 1)} />}
    </>
  );
}

function groupByCategory(issues: Issue[]): [string, Issue[]][] {
  const groups = new Map<string, Issue[]>();
  for (const issue of issues) groups.set(issue.category, [...(groups.get(issue.category) ?? []), issue]);
  return [...groups];
}

/** The line a mapping issue points at (`invoice.lineItems[2].productCode`), when it names one. */
const lineIndexOf = (path: string) => {
  const match = /lineItems\[(\d+)\]/.exec(path);
  return match ? Number(match[1]) : undefined;
};

function InvoiceDetail({ id, provider, onChanged }: { id: string; provider: PaymentProvider | ''; onChanged: () => void }) {
  const [version, setVersion] = useState(0);
  const detail = useQuery(() => api.invoices.get.query({ id, ...(provider ? { provider } : {}) }), [id, provider, version]);
  const d = detail.data;
  // Item mappings are kept per connection row; the detail names its company and integration.
  const rows = useQuery(
    () => (d ? api.connections.list.query({ integrationId: d.provenance.sourceIntegrationId }) : Promise.resolve([])),
    [d?.provenance.sourceIntegrationId],
  );
  const connectionRowId = rows.data?.find((c) => c.connectionId === d?.provenance.sourceConnectionId)?.id;
  const changed = () => {
    setVersion((v) => v + 1);
    onChanged();
  };
  // The items that mapping issues name, once each: confirming one fixes every line of that item.
  const unmappedItems = new Map<string, { path: string; line: StoredLine }>();
  for (const issue of d?.issues ?? []) {
    const index = lineIndexOf(issue.path);
    const line = index === undefined ? undefined : d?.invoice?.lineItems[index];
    if (issue.category === 'mapping' && line?.sourceItemId && !unmappedItems.has(line.sourceItemId))
      unmappedItems.set(line.sourceItemId, { path: issue.path, line });
  }
  return (
    <DetailSection label="Invoice detail" subject={id}>
      <h2>Invoice {d?.invoiceNumber ?? <Id id={id} />}</h2>
      <ErrorBox error={detail.error} />
      {d && (
        <>
          <dl class="facts">
            <dt>Readiness{provider ? ` for ${provider}` : ' (every provider)'}</dt>
            <dd>
              <span class={`badge ${d.ready ? 'ready' : 'not-ready'}`} data-testid="invoice-ready">
                {d.ready ? 'ready' : 'not ready'}
              </span>
            </dd>
            <dt>Status</dt>
            <dd>{d.status}</dd>
            <dt>Total</dt>
            <dd>
              <Money minor={d.totalAmountMinor} currency={d.currency} />
            </dd>
            <dt>Revision</dt>
            <dd>
              <code>{d.revision}</code> (source version {d.sourceVersion})
            </dd>
            <dt>Checked through</dt>
            <dd>
              <Time iso={d.checkedThrough} />
            </dd>
            <dt>PO reference</dt>
            <dd>{d.invoice?.purchaseOrderReference ?? <span class="muted">—</span>}</dd>
          </dl>
          <h3>Issues</h3>
          {d.issues.length === 0 ? (
            <Empty>No issues.</Empty>
          ) : (
            groupByCategory(d.issues).map(([category, issues]) => (
              <div key={category} class="issue-group">
                <h4>
                  {category} ({issues.length})
                </h4>
                <ul>
                  {issues.map((i) => (
                    <li key={`${i.code}:${i.path}`}>
                      <code>{i.code}</code> {i.path && <code class="muted">{i.path}</code>} — {i.message}
                    </li>
                  ))}
                </ul>
              </div>
            ))
          )}
          {unmappedItems.size > 0 && connectionRowId && (
            <>
              <h3>Confirm item mappings</h3>
              {[...unmappedItems].map(([itemId, { line }]) => (
                <ConfirmMapping key={itemId} connectionRowId={connectionRowId} itemId={itemId} line={line} onDone={changed} />
              ))}
            </>
          )}
          <h3>Qualification (Product 3)</h3>
          <InvoiceQualificationSection qualification={d.qualification} />
          <h3>Lines</h3>
          {d.invoice && d.invoice.lineItems.length > 0 ? (
            <Table
              rows={d.invoice.lineItems}
              rowKey={(l) => l.sourceLineId}
              columns={[
                { header: '#', cell: (l) => l.sequence },
                { header: 'Item', cell: (l) => <Maybe>{l.sourceItemId}</Maybe> },
                { header: 'Product', cell: (l) => <Maybe>{l.productName ?? l.description}</Maybe> },
                { header: 'Product code', cell: (l) => <Maybe>{l.productCode}</Maybe> },
                { header: 'Unit', cell: (l) => <Maybe>{l.unitOfMeasure}</Maybe> },
                { header: 'Quantity', cell: (l) => <Maybe>{l.quantity}</Maybe> },
                { header: 'Unit amount', cell: (l) => <Money minor={l.unitAmountMinor} currency={d.currency} /> },
                { header: 'Subtotal', cell: (l) => <Money minor={l.subtotalAmountMinor} currency={d.currency} /> },
                { header: 'Tax', cell: (l) => <Money minor={l.taxAmountMinor} currency={d.currency} /> },
                { header: 'Total', cell: (l) => <Money minor={l.totalAmountMinor} currency={d.currency} /> },
              ]}
            />
          ) : (
            <Empty>No lines.</Empty>
          )}
          <h3>Provenance</h3>
          <dl class="facts">
            <dt>Source integration</dt>
            <dd>
              <Id id={d.provenance.sourceIntegrationId} />
            </dd>
            <dt>Company (connectionId)</dt>
            <dd>
              <code>{d.provenance.sourceConnectionId}</code>
            </dd>
            <dt>Source record</dt>
            <dd>{d.provenance.sourceRecordId ? <Id id={d.provenance.sourceRecordId} /> : <span class="muted">—</span>}</dd>
            <dt>Mapper version</dt>
            <dd>{d.provenance.mapperVersion}</dd>
            <dt>Depends on</dt>
            <dd>
              {d.provenance.dependencies.length === 0 ? (
                <span class="muted">nothing</span>
              ) : (
                d.provenance.dependencies.map((x) => `${x.objectType} ${x.externalId}`).join(', ')
              )}
            </dd>
          </dl>
          <h4>Confirmed mappings used</h4>
          {connectionRowId && <MappingsTable connectionRowId={connectionRowId} used={d.provenance.mappings} onChanged={changed} />}
        </>
      )}
    </DetailSection>
  );
}
