import { useState } from 'preact/hooks';
import { ScopeSchema, type Scope } from '../../../../contract/common/access.js';
import { api, type Outputs } from '../api.js';
import { ConfirmButton, CopyButton, ErrorBox, Form, PagedList, Select, Table, Time } from '../components.js';
import { pageOf, useAction, usePaged } from '../hooks.js';
import { IntegrationPicker, OrganizationPicker, useSelection } from '../selection.js';

/** Keys of the selected integration: issue (the secret is shown once), list, revoke after a confirmation. */
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
          <Table
            rows={keys}
            rowKey={(k) => k.id}
            columns={[
              { header: 'Prefix', cell: (k) => <code>{k.prefix}</code> },
              { header: 'Scopes', cell: (k) => k.scopes.join(', ') },
              { header: 'Created', cell: (k) => <Time iso={k.createdAt} /> },
              { header: 'Last used', cell: (k) => <Time iso={k.lastUsedAt} /> },
              { header: 'Revoked', cell: (k) => <Time iso={k.revokedAt} /> },
              {
                header: 'Actions',
                hiddenHeader: true,
                cell: (k) =>
                  !k.revokedAt && (
                    <ConfirmButton
                      label="Revoke"
                      question={`Revoke ${k.prefix}? Its next request is refused.`}
                      onConfirm={() => void action.run(() => api.apiKeys.revoke.mutate({ id: k.id })).then(() => setChanged((c) => c + 1))}
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
