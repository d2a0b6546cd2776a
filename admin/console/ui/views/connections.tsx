import { useState } from 'preact/hooks';
import { api, type Outputs } from '../api.js';
import { ConfirmButton, CopyButton, ErrorBox, Form, Id, PagedList, Select, TextInput, Time } from '../components.js';
import { pageOf, useAction, usePaged, useQuery } from '../hooks.js';
import { IntegrationPicker, OrganizationPicker, useSelection } from '../selection.js';

type Connection = Outputs['connections']['list'][number];
const STATUSES = ['active', 'paused', 'disconnected', 'reauthorization_required'] as const satisfies readonly Connection['status'][];

export function ConnectionsView() {
  const { integrationId } = useSelection();
  const [status, setStatus] = useState<Connection['status'] | ''>('');
  const [changed, setChanged] = useState(0);
  const action = useAction();
  const [notice, setNotice] = useState('');
  const paged = usePaged(
    async (cursor) => {
      const all = await api.connections.list.query(integrationId ? { integrationId } : {});
      return pageOf(
        all.filter((c) => !status || c.status === status),
        cursor,
      );
    },
    [integrationId, status, changed],
  );
  const act = (run: () => Promise<unknown>, done: string) =>
    void action.run(run).then((r) => {
      if (r === undefined) return;
      setNotice(done);
      setChanged((c) => c + 1);
    });
  return (
    <>
      <OrganizationPicker any="Any organization" />
      <IntegrationPicker providers={['ledger']} any="Any ledger integration" />
      <Form label="Filter connections" onSubmit={() => undefined}>
        <Select label="Status" value={status} any="Any status" options={STATUSES} onChange={setStatus} />
      </Form>
      <ErrorBox error={action.error} />
      {notice && (
        <p role="status" class="notice">
          {notice}
        </p>
      )}
      <h2>Connections</h2>
      <PagedList paged={paged} caption="Connections" empty="No connections: invite the company's administrator below.">
        {(connections) => (
          <table>
            <thead>
              <tr>
                <th scope="col">Company (connectionId)</th>
                <th scope="col">Status</th>
                <th scope="col">Checked through</th>
                <th scope="col">PO field</th>
                <th scope="col">Row id</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {connections.map((c) => (
                <tr key={c.id}>
                  <td>
                    <code>{c.connectionId}</code>
                  </td>
                  <td>
                    <span class={`badge ${c.status}`}>{c.status}</span>
                  </td>
                  <td>
                    <Time iso={c.checkedThrough} />
                  </td>
                  <td>
                    <PoField connection={c} onSaved={() => setChanged((n) => n + 1)} />
                  </td>
                  <td>
                    <Id id={c.id} />
                  </td>
                  <td class="actions">
                    <button
                      type="button"
                      onClick={() => act(() => api.connections.sync.mutate({ id: c.id }), `Sync queued for ${c.connectionId}.`)}
                    >
                      Sync now
                    </button>
                    {c.status === 'active' && (
                      <ConfirmButton
                        label="Pause"
                        question="Pause? Nothing is imported and invoices are not ready until resumed."
                        onConfirm={() => act(() => api.connections.pause.mutate({ id: c.id }), `${c.connectionId} paused.`)}
                      />
                    )}
                    {c.status !== 'active' && (
                      <ConfirmButton
                        label="Resume"
                        question="Resume imports for this company?"
                        onConfirm={() => act(() => api.connections.resume.mutate({ id: c.id }), `${c.connectionId} resumed.`)}
                      />
                    )}
                    {c.status !== 'disconnected' && (
                      <ConfirmButton
                        label="Disconnect"
                        question="Disconnect? Tokens are erased and revoked; only a new invitation reconnects."
                        onConfirm={() => act(() => api.connections.disconnect.mutate({ id: c.id }), `${c.connectionId} disconnected.`)}
                      />
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </PagedList>
      <InvitationsSection integrationId={integrationId} />
    </>
  );
}

/** `connections.configure`: the invoice custom field that holds the buyer's PO (empty: read no PO). */
export function PoField({ connection, onSaved }: { connection: Connection; onSaved: () => void }) {
  const [value, setValue] = useState(connection.purchaseOrderField ?? '');
  const save = useAction();
  return (
    <Form
      label={`PO field of ${connection.connectionId}`}
      onSubmit={() =>
        void save
          .run(() => api.connections.configure.mutate({ id: connection.id, purchaseOrderField: value.trim() === '' ? null : value.trim() }))
          .then((r) => r && onSaved())
      }
    >
      <TextInput label="PO custom field" value={value} onInput={setValue} maxLength={100} placeholder="none" />
      <button type="submit" disabled={save.busy}>
        Save
      </button>
      <ErrorBox error={save.error} />
    </Form>
  );
}

function InvitationsSection({ integrationId }: { integrationId: string }) {
  const [apiKeyId, setApiKeyId] = useState('');
  const [email, setEmail] = useState('');
  const [hours, setHours] = useState('');
  const [created, setCreated] = useState<Outputs['invitations']['create'] | undefined>();
  const [changed, setChanged] = useState(0);
  const action = useAction();
  const keys = useQuery(() => (integrationId ? api.apiKeys.list.query({ integrationId }) : Promise.resolve([])), [integrationId]);
  const inviting = (keys.data ?? []).filter((k) => !k.revokedAt && k.scopes.includes('integrations:write'));
  const paged = usePaged(
    async (cursor) => pageOf(await api.invitations.list.query(integrationId ? { integrationId } : {}), cursor),
    [integrationId, changed],
  );
  return (
    <>
      <h2>Invitations</h2>
      {integrationId ? (
        <Form
          label="Invite"
          onSubmit={() =>
            void action
              .run(() =>
                api.invitations.create.mutate({
                  apiKeyId,
                  recipientEmail: email.trim(),
                  ...(hours ? { expiresInHours: Number(hours) } : {}),
                }),
              )
              .then((inv) => {
                if (!inv) return;
                setCreated(inv);
                setChanged((c) => c + 1);
              })
          }
        >
          <Select
            label="On behalf of key"
            value={apiKeyId}
            any="Choose…"
            options={inviting.map((k) => ({ value: k.id, text: k.prefix }))}
            onChange={setApiKeyId}
          />
          <TextInput label="Administrator email" type="email" value={email} onInput={setEmail} required />
          <TextInput label="Expires in hours" type="number" min={1} max={168} value={hours} onInput={setHours} placeholder="default" />
          <button type="submit" disabled={action.busy || !apiKeyId}>
            Send invitation
          </button>
        </Form>
      ) : (
        <p class="muted">Choose a ledger integration to send an invitation (on behalf of one of its keys with integrations:write).</p>
      )}
      <ErrorBox error={action.error} />
      {created && (
        <div class="notice" role="status">
          <p>
            Invitation sent to {created.recipientEmail}; it expires <Time iso={created.expiresAt} />. The email holds this connect link:
          </p>
          <p>
            <a href={created.connectUrl} target="_blank" rel="noopener noreferrer" data-testid="connect-url">
              Open the connect link
            </a>{' '}
            <CopyButton text={created.connectUrl} label="Copy link" />
          </p>
        </div>
      )}
      <PagedList paged={paged} caption="Invitations" empty="No invitations.">
        {(invitations) => (
          <table>
            <thead>
              <tr>
                <th scope="col">Recipient</th>
                <th scope="col">Status</th>
                <th scope="col">Company</th>
                <th scope="col">Created</th>
                <th scope="col">Expires</th>
                <th scope="col">Used</th>
              </tr>
            </thead>
            <tbody>
              {invitations.map((i) => (
                <tr key={i.id}>
                  <td>{i.recipientEmail}</td>
                  <td>{i.status}</td>
                  <td>{i.connectionId ?? <span class="muted">—</span>}</td>
                  <td>
                    <Time iso={i.createdAt} />
                  </td>
                  <td>
                    <Time iso={i.expiresAt} />
                  </td>
                  <td>
                    <Time iso={i.consumedAt} />
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
