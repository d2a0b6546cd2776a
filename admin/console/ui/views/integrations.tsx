import { useState } from 'preact/hooks';
import { EnvironmentSchema, ProviderSchema, type Environment, type Provider } from '../../../../contract/common/access.js';
import { api, type Outputs } from '../api.js';
import { ConfirmButton, ErrorBox, Form, Id, PagedList, Select, Table, Time } from '../components.js';
import { pageOf, useAction, usePaged, useQuery } from '../hooks.js';
import { OrganizationPicker, useSelection } from '../selection.js';

/** Integrations of the selected organization, and the links that let provider integrations read ledger invoices. */
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
          <Table
            rows={integrations}
            rowKey={(i) => i.id}
            columns={[
              { header: 'Provider', cell: (i) => i.provider },
              { header: 'Environment', cell: (i) => i.environment },
              { header: 'Id', cell: (i) => <Id id={i.id} /> },
              { header: 'Created', cell: (i) => <Time iso={i.createdAt} /> },
            ]}
          />
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
          <Table
            rows={links}
            rowKey={(l) => l.id}
            columns={[
              { header: 'Ledger integration', cell: (l) => label(l.ledgerIntegrationId) },
              { header: 'Provider integration', cell: (l) => label(l.providerIntegrationId) },
              { header: 'Created', cell: (l) => <Time iso={l.createdAt} /> },
              {
                header: 'Actions',
                hiddenHeader: true,
                cell: (l) => (
                  <ConfirmButton
                    label="Unlink"
                    question="Keys of the provider integration lose access to these invoices. Unlink?"
                    onConfirm={() => void action.run(() => api.links.delete.mutate({ id: l.id })).then(() => setChanged((c) => c + 1))}
                  />
                ),
              },
            ]}
          />
        )}
      </PagedList>
    </>
  );
}
