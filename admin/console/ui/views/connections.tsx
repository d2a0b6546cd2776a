import { useState } from 'preact/hooks';
import { api, type Outputs } from '../api.js';
import { ConfirmButton, CopyButton, ErrorBox, Form, Id, Maybe, PagedList, Select, Table, TextInput, Time } from '../components.js';
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
          <Table
            rows={connections}
            rowKey={(c) => c.id}
            columns={[
              { header: 'Company (connectionId)', cell: (c) => <code>{c.connectionId}</code> },
              { header: 'Status', cell: (c) => <span class={`badge ${c.status}`}>{c.status}</span> },
              { header: 'Checked through', cell: (c) => <Time iso={c.checkedThrough} /> },
              { header: 'PO field', cell: (c) => <PoField connection={c} onSaved={() => setChanged((n) => n + 1)} /> },
              { header: 'Row id', cell: (c) => <Id id={c.id} /> },
              {
                header: 'Actions',
                cell: (c) => (
                  <span class="actions">
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
                  </span>
                ),
              },
            ]}
          />
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
          <Table
            rows={invitations}
            rowKey={(i) => i.id}
            columns={[
              { header: 'Recipient', cell: (i) => i.recipientEmail },
              { header: 'Status', cell: (i) => i.status },
              { header: 'Company', cell: (i) => <Maybe>{i.connectionId}</Maybe> },
              { header: 'Created', cell: (i) => <Time iso={i.createdAt} /> },
              { header: 'Expires', cell: (i) => <Time iso={i.expiresAt} /> },
              { header: 'Used', cell: (i) => <Time iso={i.consumedAt} /> },
            ]}
          />
        )}
      </PagedList>
    </>
  );
}
