import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { ErrorBox, Form, Id, PagedList, TextInput, Time } from '../components.js';
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
