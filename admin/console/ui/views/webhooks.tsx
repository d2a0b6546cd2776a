import { useState } from 'preact/hooks';
import { api, type Outputs } from '../api.js';
import { ConfirmButton, CopyButton, ErrorBox, Form, Id, PagedList, Select, TextInput, Time } from '../components.js';
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
          <table>
            <thead>
              <tr>
                <th scope="col">URL to configure at gwa</th>
                <th scope="col">Status</th>
                <th scope="col">Key pair</th>
                <th scope="col">Integration</th>
                <th scope="col">Created</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((e) => (
                <tr key={e.id}>
                  <td>
                    <code data-testid="endpoint-url">{e.url}</code> <CopyButton text={e.url} label="Copy URL" />
                  </td>
                  <td>{e.status}</td>
                  <td>
                    <KeyPair endpoint={e} onSaved={() => setChanged((c) => c + 1)} />
                  </td>
                  <td>
                    <Id id={e.integrationId} />
                  </td>
                  <td>
                    <Time iso={e.createdAt} />
                  </td>
                  <td class="actions">
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
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
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
          <table>
            <thead>
              <tr>
                <th scope="col">Notified</th>
                <th scope="col">Kind</th>
                <th scope="col">Subject</th>
                <th scope="col">Status</th>
                <th scope="col">Issues</th>
                <th scope="col">Payment</th>
                <th scope="col">Received</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((e) => (
                <tr key={e.id}>
                  <td>
                    <Time iso={e.notificationAt} />
                  </td>
                  <td>{e.kind}</td>
                  <td>
                    {e.subjectType} {e.subjectId && <code>{e.subjectId}</code>}
                  </td>
                  <td>{e.status}</td>
                  <td>{e.issues.length === 0 ? '—' : e.issues.map((i) => i.code).join(', ')}</td>
                  <td>{e.trackedPaymentId ? <Id id={e.trackedPaymentId} /> : '—'}</td>
                  <td>
                    <Time iso={e.receivedAt} />
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
