import { useState } from 'preact/hooks';
import { api, type Outputs } from '../api.js';
import { ConfirmButton, CopyButton, ErrorBox, Form, Id, Maybe, PagedList, Select, Table, TextInput, Time } from '../components.js';
import { pageOf, useAction, usePaged } from '../hooks.js';
import { IntegrationPicker, OrganizationPicker, useSelection } from '../selection.js';

type Endpoint = Outputs['webhookEndpoints']['list']['endpoints'][number];

export function WebhooksView() {
  const { integrationId } = useSelection();
  const [publicKey, setPublicKey] = useState('');
  const [privateKey, setPrivateKey] = useState('');
  const [changed, setChanged] = useState(0);
  const [endpointId, setEndpointId] = useState('');
  const [kind, setKind] = useState('');
  const action = useAction();
  const endpoints = usePaged(
    async (cursor) => pageOf((await api.webhookEndpoints.list.query(integrationId ? { integrationId } : {})).endpoints, cursor),
    [integrationId, changed],
  );
  const events = usePaged(
    async (cursor) => {
      const page = await api.webhookEvents.list.query({
        ...(endpointId ? { endpointId } : {}),
        ...(kind.trim() ? { kind: kind.trim() } : {}),
        ...(cursor ? { cursor } : {}),
      });
      return { items: page.events, nextCursor: page.nextCursor };
    },
    [endpointId, kind],
  );
  return (
    <>
      <OrganizationPicker any="Any organization" />
      <IntegrationPicker providers={['gwa']} any="Any gwa integration" />
      {integrationId && (
        <>
          <h2>New endpoint</h2>
          <Form
            label="New webhook endpoint"
            onSubmit={() =>
              void action
                .run(() =>
                  api.webhookEndpoints.create.mutate({
                    integrationId,
                    ...(publicKey || privateKey ? { publicKey, privateKey } : {}),
                  }),
                )
                .then((e) => {
                  if (!e) return;
                  setPublicKey('');
                  setPrivateKey('');
                  setChanged((c) => c + 1);
                })
            }
          >
            <TextInput label="gwa public key" value={publicKey} onInput={setPublicKey} placeholder="optional" />
            <TextInput
              label="gwa private key"
              type="password"
              autoComplete="off"
              value={privateKey}
              onInput={setPrivateKey}
              placeholder="optional"
            />
            <button type="submit" disabled={action.busy}>
              Create endpoint
            </button>
          </Form>
        </>
      )}
      <ErrorBox error={action.error} />
      <h2>Endpoints</h2>
      <PagedList paged={endpoints} caption="Webhook endpoints" empty="No webhook endpoints.">
        {(rows: Endpoint[]) => (
          <Table
            rows={rows}
            rowKey={(e) => e.id}
            selected={endpointId}
            columns={[
              {
                header: 'URL to configure at gwa',
                cell: (e) => (
                  <>
                    <code data-testid="endpoint-url">{e.url}</code> <CopyButton text={e.url} label="Copy URL" />
                  </>
                ),
              },
              { header: 'Status', cell: (e) => e.status },
              { header: 'Key pair', cell: (e) => <KeyPair endpoint={e} onSaved={() => setChanged((c) => c + 1)} /> },
              { header: 'Integration', cell: (e) => <Id id={e.integrationId} /> },
              { header: 'Created', cell: (e) => <Time iso={e.createdAt} /> },
              {
                header: 'Actions',
                cell: (e) => (
                  <span class="actions">
                    <button type="button" onClick={() => setEndpointId(e.id)}>
                      Show events
                    </button>
                    {e.status !== 'disabled' && (
                      <ConfirmButton
                        label="Disable"
                        question="Disable? Deliveries to this URL are refused from now on."
                        onConfirm={() =>
                          void action.run(() => api.webhookEndpoints.disable.mutate({ id: e.id })).then(() => setChanged((c) => c + 1))
                        }
                      />
                    )}
                  </span>
                ),
              },
            ]}
          />
        )}
      </PagedList>
      <h2>Events</h2>
      <Form label="Filter webhook events" onSubmit={() => undefined}>
        <Select
          label="Endpoint"
          value={endpointId}
          any="Every endpoint"
          options={(endpoints.data?.items ?? []).map((e) => ({ value: e.id, text: e.id.slice(0, 8) }))}
          onChange={setEndpointId}
        />
        <TextInput label="Kind" value={kind} onInput={setKind} type="search" pattern="[a-z][a-z0-9_]*" />
      </Form>
      <PagedList paged={events} caption="Webhook events" empty="No recorded notifications match these filters.">
        {(rows) => (
          <Table
            rows={rows}
            rowKey={(e) => e.id}
            columns={[
              { header: 'Notified', cell: (e) => <Time iso={e.notificationAt} /> },
              { header: 'Kind', cell: (e) => e.kind },
              {
                header: 'Subject',
                cell: (e) => (
                  <>
                    {e.subjectType} {e.subjectId && <code>{e.subjectId}</code>}
                  </>
                ),
              },
              { header: 'Status', cell: (e) => e.status },
              { header: 'Issues', cell: (e) => <Maybe>{e.issues.map((i) => i.code).join(', ')}</Maybe> },
              { header: 'Payment', cell: (e) => (e.trackedPaymentId ? <Id id={e.trackedPaymentId} /> : <Maybe>{null}</Maybe>) },
              { header: 'Received', cell: (e) => <Time iso={e.receivedAt} /> },
            ]}
          />
        )}
      </PagedList>
    </>
  );
}

/** The public key in use (and the previous one while it still verifies); the private key is never shown, only replaced. */
function KeyPair({ endpoint, onSaved }: { endpoint: Endpoint; onSaved: () => void }) {
  const [editing, setEditing] = useState(false);
  const [publicKey, setPublicKey] = useState('');
  const [privateKey, setPrivateKey] = useState('');
  const save = useAction();
  return (
    <>
      {endpoint.hasCredentials ? <code>{endpoint.publicKey}</code> : <span class="muted">not set: deliveries are refused</span>}
      {endpoint.previousPublicKey && (
        <div class="muted">
          previous <code>{endpoint.previousPublicKey}</code> until <Time iso={endpoint.previousValidUntil} />
        </div>
      )}
      {endpoint.status === 'active' &&
        (editing ? (
          <Form
            label="Set the key pair"
            onSubmit={() =>
              void save
                .run(() => api.webhookEndpoints.setCredentials.mutate({ id: endpoint.id, publicKey, privateKey }))
                .then((r) => {
                  if (!r) return;
                  setEditing(false);
                  setPrivateKey('');
                  onSaved();
                })
            }
          >
            <TextInput label="New public key" value={publicKey} onInput={setPublicKey} required />
            <TextInput label="New private key" type="password" autoComplete="off" value={privateKey} onInput={setPrivateKey} required />
            <button type="submit" disabled={save.busy}>
              Save key pair
            </button>
            <button type="button" onClick={() => setEditing(false)}>
              Cancel
            </button>
            <ErrorBox error={save.error} />
          </Form>
        ) : (
          <div>
            <button type="button" onClick={() => setEditing(true)}>
              {endpoint.hasCredentials ? 'Rotate keys' : 'Set keys'}
            </button>
          </div>
        ))}
    </>
  );
}
