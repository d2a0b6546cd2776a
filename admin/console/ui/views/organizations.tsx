import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { ErrorBox, Form, Id, PagedList, Table, TextInput, Time } from '../components.js';
import { pageOf, useAction, usePaged } from '../hooks.js';
import { useSelection } from '../selection.js';

/** Organizations: create one (it becomes the selected organization), find one by name or id. */
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
          <Table
            rows={orgs}
            rowKey={(o) => o.id}
            selected={organizationId}
            columns={[
              { header: 'Name', cell: (o) => o.name },
              { header: 'Id', cell: (o) => <Id id={o.id} /> },
              { header: 'Status', cell: (o) => o.status },
              { header: 'Created', cell: (o) => <Time iso={o.createdAt} /> },
              {
                header: 'Actions',
                hiddenHeader: true,
                cell: (o) => (
                  <button type="button" onClick={() => setOrganization(o.id)} aria-label={`Select ${o.name}`}>
                    {o.id === organizationId ? 'Selected' : 'Select'}
                  </button>
                ),
              },
            ]}
          />
        )}
      </PagedList>
    </>
  );
}
