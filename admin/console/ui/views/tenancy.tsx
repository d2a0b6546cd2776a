import { useState } from 'preact/hooks';
import {
  EnvironmentSchema,
  ProviderSchema,
  ScopeSchema,
  type Environment,
  type Provider,
  type Scope,
} from '../../../../contract/common/access.js';
import { api, type Outputs } from '../api.js';
import { ConfirmButton, CopyButton, ErrorBox, Form, Id, PagedList, Select, TextInput, Time } from '../components.js';
import { pageOf, useAction, usePaged, useQuery } from '../hooks.js';
import { IntegrationPicker, OrganizationPicker, useSelection } from '../selection.js';

export function OrganizationsView() {
  const { setOrganization, organizationId } = useSelection();
  const [name, setName] = useState('');
  const [filter, setFilter] = useState('');
  const [version, setVersion] = useState(0);
  const create = useAction();
  const paged = usePaged(
    async (cursor) => {
      const all = await api.organizations.list.query();
      const needle = filter.trim().toLowerCase();
      return pageOf(
        all.filter((o) => !needle || o.name.toLowerCase().includes(needle) || o.id.startsWith(needle)),
        cursor,
      );
    },
    [filter, version],
  );
  return (
    <>
      <h2>New organization</h2>
      <Form
        label="New organization"
        onSubmit={() =>
          void create
            .run(() => api.organizations.create.mutate({ name }))
            .then((org) => {
              if (!org) return;
              setName('');
              setOrganization(org.id);
              setVersion((v) => v + 1);
            })
        }
      >
        <TextInput label="Name" value={name} onInput={setName} required maxLength={200} />
        <button type="submit" disabled={create.busy}>
          Create organization
        </button>
      </Form>
      <ErrorBox error={create.error} />
      <h2>Organizations</h2>
      <Form label="Filter organizations" onSubmit={() => undefined}>
        <TextInput label="Name or id contains" value={filter} onInput={setFilter} type="search" />
      </Form>
      <PagedList paged={paged} caption="Organizations" empty={filter ? 'No organization matches this filter.' : 'No organizations yet.'}>
        {(orgs) => (
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Id</th>
                <th scope="col">Status</th>
                <th scope="col">Created</th>
                <th scope="col">
                  <span class="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {orgs.map((o) => (
                <tr key={o.id} class={o.id === organizationId ? 'selected' : undefined}>
                  <td>{o.name}</td>
                  <td>
                    <Id id={o.id} />
                  </td>
                  <td>{o.status}</td>
                  <td>
                    <Time iso={o.createdAt} />
                  </td>
                  <td>
                    <button type="button" onClick={() => setOrganization(o.id)} aria-label={`Select ${o.name}`}>
                      {o.id === organizationId ? 'Selected' : 'Select'}
                    </button>
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

export function IntegrationsView() {
  const { organizationId, setIntegration } = useSelection();
  const [provider, setProvider] = useState<Provider>('ledger');
  const [environment, setEnvironment] = useState<Environment>('sandbox');
  const [providerFilter, setProviderFilter] = useState<Provider | ''>('');
  const [version, setVersion] = useState(0);
  const create = useAction();
  const paged = usePaged(
    async (cursor) => {
      if (!organizationId) return pageOf<Outputs['integrations']['list'][number]>([], cursor);
      const all = await api.integrations.list.query({ organizationId });
      return pageOf(
        all.filter((i) => !providerFilter || i.provider === providerFilter),
        cursor,
      );
    },
    [organizationId, providerFilter, version],
  );
  return (
    <>
      <OrganizationPicker />
      {organizationId && (
        <>
          <h2>New integration</h2>
          <Form
            label="New integration"
            onSubmit={() =>
              void create
                .run(() => api.integrations.create.mutate({ organizationId, provider, environment }))
                .then((i) => {
                  if (!i) return;
                  setIntegration(i.id);
                  setVersion((v) => v + 1);
                })
            }
          >
            <Select label="Provider" value={provider} options={ProviderSchema.options} onChange={(v) => v && setProvider(v)} />
            <Select label="Environment" value={environment} options={EnvironmentSchema.options} onChange={(v) => v && setEnvironment(v)} />
            <button type="submit" disabled={create.busy}>
              Create integration
            </button>
          </Form>
          <ErrorBox error={create.error} />
        </>
      )}
      <h2>Integrations</h2>
      <Form label="Filter integrations" onSubmit={() => undefined}>
        <Select
          label="Provider filter"
          value={providerFilter}
          any="Any provider"
          options={ProviderSchema.options}
          onChange={setProviderFilter}
        />
      </Form>
      <PagedList
        paged={paged}
        caption="Integrations"
        empty={organizationId ? 'This organization has no integrations matching the filter.' : 'Choose an organization first.'}
      >
        {(integrations) => (
          <table>
            <thead>
              <tr>
                <th scope="col">Provider</th>
                <th scope="col">Environment</th>
                <th scope="col">Id</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {integrations.map((i) => (
                <tr key={i.id}>
                  <td>{i.provider}</td>
                  <td>{i.environment}</td>
                  <td>
                    <Id id={i.id} />
                  </td>
                  <td>
                    <Time iso={i.createdAt} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </PagedList>
      {organizationId && <LinksSection organizationId={organizationId} version={version} />}
    </>
  );
}

function LinksSection({ organizationId, version }: { organizationId: string; version: number }) {
  const [ledgerId, setLedgerId] = useState('');
  const [providerId, setProviderId] = useState('');
  const [changed, setChanged] = useState(0);
  const action = useAction();
  const integrations = useQuery(() => api.integrations.list.query({ organizationId }), [organizationId, version]);
  const label = (id: string) => {
    const i = integrations.data?.find((x) => x.id === id);
    return i ? `${i.provider} ${i.environment} (${id.slice(0, 8)})` : id.slice(0, 8);
  };
  const paged = usePaged(
    async (cursor) => pageOf(await api.links.list.query({ organizationId }), cursor),
    [organizationId, version, changed],
  );
  const options = (providers: (p: string) => boolean) =>
    (integrations.data ?? []).filter((i) => providers(i.provider)).map((i) => ({ value: i.id, text: label(i.id) }));
  return (
    <>
      <h2>Links</h2>
      <p class="muted">A link lets a payment-provider integration read the invoices of a ledger integration (scope invoices:read).</p>
      <Form
        label="New link"
        onSubmit={() =>
          void action
            .run(() => api.links.create.mutate({ ledgerIntegrationId: ledgerId, providerIntegrationId: providerId }))
            .then((l) => l && setChanged((c) => c + 1))
        }
      >
        <Select label="Ledger integration" value={ledgerId} any="Choose…" options={options((p) => p === 'ledger')} onChange={setLedgerId} />
        <Select
          label="Provider integration"
          value={providerId}
          any="Choose…"
          options={options((p) => p !== 'ledger')}
          onChange={setProviderId}
        />
        <button type="submit" disabled={action.busy || !ledgerId || !providerId}>
          Link
        </button>
      </Form>
      <ErrorBox error={action.error} />
      <PagedList paged={paged} caption="Links" empty="No links in this organization.">
        {(links) => (
          <table>
            <thead>
              <tr>
                <th scope="col">Ledger integration</th>
                <th scope="col">Provider integration</th>
                <th scope="col">Created</th>
                <th scope="col">
                  <span class="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {links.map((l) => (
                <tr key={l.id}>
                  <td>{label(l.ledgerIntegrationId)}</td>
                  <td>{label(l.providerIntegrationId)}</td>
                  <td>
                    <Time iso={l.createdAt} />
                  </td>
                  <td>
                    <ConfirmButton
                      label="Unlink"
                      question="Keys of the provider integration lose access to these invoices. Unlink?"
                      onConfirm={() => void action.run(() => api.links.delete.mutate({ id: l.id })).then(() => setChanged((c) => c + 1))}
                    />
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

export function ApiKeysView() {
  const { integrationId } = useSelection();
  const [scopes, setScopes] = useState<Scope[]>([]);
  const [issued, setIssued] = useState<Outputs['apiKeys']['issue'] | undefined>();
  const [showRevoked, setShowRevoked] = useState<'all' | 'active'>('all');
  const [changed, setChanged] = useState(0);
  const action = useAction();
  const paged = usePaged(
    async (cursor) => {
      if (!integrationId) return pageOf<Outputs['apiKeys']['list'][number]>([], cursor);
      const all = await api.apiKeys.list.query({ integrationId });
      return pageOf(
        all.filter((k) => showRevoked === 'all' || !k.revokedAt),
        cursor,
      );
    },
    [integrationId, showRevoked, changed],
  );
  const toggle = (scope: Scope, on: boolean) => setScopes((s) => (on ? [...s, scope] : s.filter((x) => x !== scope)));
  return (
    <>
      <OrganizationPicker />
      <IntegrationPicker />
      {integrationId && (
        <>
          <h2>Issue a key</h2>
          <Form
            label="Issue a key"
            onSubmit={() =>
              void action
                .run(() => api.apiKeys.issue.mutate({ integrationId, scopes }))
                .then((k) => {
                  if (!k) return;
                  setIssued(k);
                  setChanged((c) => c + 1);
                })
            }
          >
            <fieldset>
              <legend>Scopes</legend>
              {ScopeSchema.options.map((s) => (
                <label key={s} class="check">
                  <input type="checkbox" checked={scopes.includes(s)} onChange={(e) => toggle(s, e.currentTarget.checked)} /> {s}
                </label>
              ))}
            </fieldset>
            <button type="submit" disabled={action.busy}>
              Issue key
            </button>
          </Form>
        </>
      )}
      {issued && (
        <div class="notice" role="status">
          <p>
            <strong>New key — shown only now.</strong> Store it where the merchant backend reads it; the service keeps only its hash.
          </p>
          <p>
            <code class="secret" data-testid="issued-key">
              {issued.key}
            </code>{' '}
            <CopyButton text={issued.key} label="Copy key" />{' '}
            <button type="button" onClick={() => setIssued(undefined)}>
              Done, hide it
            </button>
          </p>
        </div>
      )}
      <ErrorBox error={action.error} />
      <h2>Keys</h2>
      <Form label="Filter keys" onSubmit={() => undefined}>
        <Select
          label="Show"
          value={showRevoked}
          options={[
            { value: 'all', text: 'All keys' },
            { value: 'active', text: 'Active keys only' },
          ]}
          onChange={(v) => v && setShowRevoked(v)}
        />
      </Form>
      <PagedList paged={paged} caption="API keys" empty={integrationId ? 'This integration has no keys.' : 'Choose an integration first.'}>
        {(keys) => (
          <table>
            <thead>
              <tr>
                <th scope="col">Prefix</th>
                <th scope="col">Scopes</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">Revoked</th>
                <th scope="col">
                  <span class="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {keys.map((k) => (
                <tr key={k.id}>
                  <td>
                    <code>{k.prefix}</code>
                  </td>
                  <td>{k.scopes.join(', ')}</td>
                  <td>
                    <Time iso={k.createdAt} />
                  </td>
                  <td>
                    <Time iso={k.lastUsedAt} />
                  </td>
                  <td>
                    <Time iso={k.revokedAt} />
                  </td>
                  <td>
                    {!k.revokedAt && (
                      <ConfirmButton
                        label="Revoke"
                        question={`Revoke ${k.prefix}? Its next request is refused.`}
                        onConfirm={() =>
                          void action.run(() => api.apiKeys.revoke.mutate({ id: k.id })).then(() => setChanged((c) => c + 1))
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
    </>
  );
}
