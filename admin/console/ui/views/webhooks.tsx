import { useState } from 'preact/hooks';
import { api, type Outputs } from '../api.js';
import { ConfirmButton, CopyButton, ErrorBox, Form, Id, Maybe, Money, PagedList, Select, Table, TextInput, Time } from '../components.js';
import { pageOf, useAction, usePaged, useQuery } from '../hooks.js';
import { IntegrationPicker, OrganizationPicker, useSelection } from '../selection.js';

type Endpoint = Outputs['webhookEndpoints']['list']['endpoints'][number];
type Unconfirmed = Outputs['preparations']['unconfirmed']['preparations'][number];

const HOUR_MS = 60 * 60 * 1000;
/** How old a secret is, in whole hours or days: the spec's review of a missing confirmation asks for it. */
const ageOf = (iso: string | null) => {
  if (!iso) return 'not set';
  const hours = Math.floor((Date.now() - Date.parse(iso)) / HOUR_MS);
  return hours < 48 ? `${hours} h` : `${Math.floor(hours / 24)} days`;
};

export function WebhooksView() {
  const { organizationId, integrationId } = useSelection();
  const integrations = useQuery(
    () => (organizationId ? api.integrations.list.query({ organizationId }) : Promise.resolve([])),
    [organizationId],
  );
  const provider = (integrations.data ?? []).find((i) => i.id === integrationId)?.provider;
  const [publicKey, setPublicKey] = useState('');
  const [privateKey, setPrivateKey] = useState('');
  const [signingSecret, setSigningSecret] = useState('');
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
      <IntegrationPicker providers={['gwa', 'gwc']} any="Any gwa or gwc integration" />
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
                    ...(signingSecret ? { signingSecret } : {}),
                  }),
                )
                .then((e) => {
                  if (!e) return;
                  setPublicKey('');
                  setPrivateKey('');
                  setSigningSecret('');
                  setChanged((c) => c + 1);
                })
            }
          >
            {provider === 'gwc' ? (
              <TextInput
                label="gwc signing secret (whsec_…)"
                type="password"
                autoComplete="off"
                value={signingSecret}
                onInput={setSigningSecret}
                placeholder="optional"
              />
            ) : (
              <>
                <TextInput label="gwa public key" value={publicKey} onInput={setPublicKey} placeholder="optional" />
                <TextInput
                  label="gwa private key"
                  type="password"
                  autoComplete="off"
                  value={privateKey}
                  onInput={setPrivateKey}
                  placeholder="optional"
                />
              </>
            )}
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
                header: 'URL to configure at the provider',
                cell: (e) => (
                  <>
                    {e.provider} <code data-testid="endpoint-url">{e.url}</code> <CopyButton text={e.url} label="Copy URL" />
                    {e.provider === 'gwc' && <RecommendedEvents endpoint={e} />}
                  </>
                ),
              },
              { header: 'Status', cell: (e) => e.status },
              {
                header: 'Secret',
                cell: (e) =>
                  e.provider === 'gwc' ? (
                    <SigningSecret endpoint={e} onSaved={() => setChanged((c) => c + 1)} />
                  ) : (
                    <KeyPair endpoint={e} onSaved={() => setChanged((c) => c + 1)} />
                  ),
              },
              { header: 'Deliveries', cell: (e) => <DeliveryStatus endpoint={e} /> },
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
        <TextInput label="Kind" value={kind} onInput={setKind} type="search" pattern="[a-z][a-z0-9_.]*" />
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
      <UnconfirmedPreparations integrationId={integrationId} />
    </>
  );
}

/** The event types to enable at the provider, each marked once the endpoint has received one. */
function RecommendedEvents({ endpoint }: { endpoint: Endpoint }) {
  return (
    <details>
      <summary>Recommended event types</summary>
      <ul>
        {endpoint.recommendedEventTypes.map((t) => (
          <li key={t}>
            <code>{t}</code> {endpoint.delivery.kinds.includes(t) ? '✓ received' : <span class="muted">none received yet</span>}
          </li>
        ))}
      </ul>
    </details>
  );
}

/** What the endpoint received and its last refusal with the reason (never a signature or secret). */
function DeliveryStatus({ endpoint }: { endpoint: Endpoint }) {
  const d = endpoint.delivery;
  const counts = Object.entries(d.counts);
  return (
    <>
      {d.lastDelivery ? (
        <div>
          last <Time iso={d.lastDelivery.at} /> {d.lastDelivery.kind} → {d.lastDelivery.status}
        </div>
      ) : (
        <div class="muted">no delivery recorded</div>
      )}
      {counts.length > 0 && <div>{counts.map(([status, n]) => `${status}: ${n}`).join(', ')}</div>}
      {d.lastRefusal && (
        <div class="error">
          last refused <Time iso={d.lastRefusal.at} />: {d.lastRefusal.code}, {d.lastRefusal.message}
        </div>
      )}
    </>
  );
}

/** Whether the gwc signing secret is set and how old it is; the secret itself is never shown, only replaced. */
function SigningSecret({ endpoint, onSaved }: { endpoint: Endpoint; onSaved: () => void }) {
  return (
    <>
      {endpoint.hasCredentials ? (
        <span>set, age {ageOf(endpoint.credentialsUpdatedAt)}</span>
      ) : (
        <span class="muted">not set: deliveries are refused</span>
      )}
      {endpoint.previousValidUntil && (
        <div class="muted">
          previous secret accepted until <Time iso={endpoint.previousValidUntil} />
        </div>
      )}
      <SecretEditor
        endpoint={endpoint}
        onSaved={onSaved}
        what="secret"
        fields={[{ name: 'signingSecret', label: 'New signing secret', secret: true }]}
      />
    </>
  );
}

/** Missing confirmations (spec: Events 2): review the endpoint, never retry the payment. */
function UnconfirmedPreparations({ integrationId }: { integrationId: string }) {
  const [hours, setHours] = useState('1');
  const olderThanHours = /^[0-9]{1,4}$/.test(hours) ? Number(hours) : 0;
  const list = useQuery(
    () => api.preparations.unconfirmed.query({ ...(integrationId ? { integrationId } : {}), olderThanHours }),
    [integrationId, olderThanHours],
  );
  return (
    <>
      <h2>Missing confirmations (gwc)</h2>
      <p class="muted">
        gwc preparations, inline enrichments and payments without a provider-verified capture. Review the endpoint mode, the recommended
        event types, the deliveries and the signing secret, and retry the webhook delivery at the provider; never the payment.
      </p>
      <Form label="Filter missing confirmations" onSubmit={() => undefined}>
        <TextInput label="Older than (hours)" value={hours} onInput={setHours} pattern="[0-9]{1,4}" />
      </Form>
      <ErrorBox error={list.error} />
      <Table
        rows={list.data?.preparations ?? []}
        rowKey={(p: Unconfirmed) => p.id}
        columns={[
          {
            header: 'What',
            cell: (p) => (
              <>
                {p.kind.replace('_', ' ')} <Id id={p.id} />
              </>
            ),
          },
          { header: 'Amount', cell: (p) => <Money minor={p.amountMinor} currency={p.currency} /> },
          { header: 'Created', cell: (p) => <Time iso={p.createdAt} /> },
          { header: 'Payment', cell: (p) => (p.payment ? `${p.payment.status ?? '—'}` : <span class="muted">no report or event</span>) },
          {
            header: 'Endpoint checks',
            cell: (p) =>
              p.endpoints.length === 0 ? (
                <span class="error">no gwc endpoint registered for this integration</span>
              ) : (
                <ul>
                  {p.endpoints.map((e) => (
                    <li key={e.endpointId}>
                      {e.status}, {e.mode} mode, secret {e.hasSecret ? `age ${e.secretAgeHours} h` : 'not set'}; missing event types:{' '}
                      {e.recommendedEventTypesMissing.join(', ') || 'none'}; last delivery{' '}
                      {e.lastDelivery ? `${e.lastDelivery.kind} → ${e.lastDelivery.status}` : 'none'}
                      {e.lastRefusal && `; last refusal: ${e.lastRefusal.message}`}
                    </li>
                  ))}
                </ul>
              ),
          },
        ]}
      />
    </>
  );
}

/** The public key in use (and the previous one while it still verifies); the private key is never shown, only replaced. */
function KeyPair({ endpoint, onSaved }: { endpoint: Endpoint; onSaved: () => void }) {
  return (
    <>
      {endpoint.hasCredentials ? <code>{endpoint.publicKey}</code> : <span class="muted">not set: deliveries are refused</span>}
      {endpoint.previousPublicKey && (
        <div class="muted">
          previous <code>{endpoint.previousPublicKey}</code> until <Time iso={endpoint.previousValidUntil} />
        </div>
      )}
      <SecretEditor
        endpoint={endpoint}
        onSaved={onSaved}
        what="keys"
        fields={[
          { name: 'publicKey', label: 'New public key', secret: false },
          { name: 'privateKey', label: 'New private key', secret: true },
        ]}
      />
    </>
  );
}

/** Set or rotate an active endpoint's credentials (the gwa key pair, the gwc signing secret); typed values are never shown back. */
function SecretEditor(props: {
  endpoint: Endpoint;
  onSaved: () => void;
  what: 'keys' | 'secret';
  fields: { name: 'publicKey' | 'privateKey' | 'signingSecret'; label: string; secret: boolean }[];
}) {
  const [editing, setEditing] = useState(false);
  const [values, setValues] = useState<Record<string, string>>({});
  const save = useAction();
  if (props.endpoint.status !== 'active') return null;
  if (!editing) {
    return (
      <div>
        <button type="button" onClick={() => setEditing(true)}>
          {props.endpoint.hasCredentials ? `Rotate ${props.what}` : `Set ${props.what}`}
        </button>
      </div>
    );
  }
  return (
    <Form
      label={props.what === 'keys' ? 'Set the key pair' : 'Set the signing secret'}
      onSubmit={() =>
        void save
          .run(() => api.webhookEndpoints.setCredentials.mutate({ id: props.endpoint.id, ...values }))
          .then((r) => {
            if (!r) return;
            setEditing(false);
            setValues({});
            props.onSaved();
          })
      }
    >
      {props.fields.map((f) => (
        <TextInput
          key={f.name}
          label={f.label}
          value={values[f.name] ?? ''}
          onInput={(v) => setValues((current) => ({ ...current, [f.name]: v }))}
          required
          {...(f.secret ? { type: 'password', autoComplete: 'off' } : {})}
        />
      ))}
      <button type="submit" disabled={save.busy}>
        {props.what === 'keys' ? 'Save key pair' : 'Save secret'}
      </button>
      <button type="button" onClick={() => setEditing(false)}>
        Cancel
      </button>
      <ErrorBox error={save.error} />
    </Form>
  );
}
