import { createContext, type ComponentChildren } from 'preact';
import { useContext, useState } from 'preact/hooks';
import { api } from './api.js';
import { Select } from './components.js';
import { useQuery } from './hooks.js';

interface Selection {
  organizationId: string;
  integrationId: string;
  setOrganization: (id: string) => void;
  setIntegration: (id: string) => void;
}

const SelectionContext = createContext<Selection | undefined>(undefined);

/** The organization and integration chosen in one view stay chosen in the others. */
export function SelectionProvider({ children }: { children: ComponentChildren }) {
  const [organizationId, setOrganizationId] = useState('');
  const [integrationId, setIntegration] = useState('');
  const setOrganization = (id: string) => {
    setOrganizationId(id);
    setIntegration('');
  };
  return (
    <SelectionContext.Provider value={{ organizationId, integrationId, setOrganization, setIntegration }}>
      {children}
    </SelectionContext.Provider>
  );
}

export function useSelection(): Selection {
  const selection = useContext(SelectionContext);
  if (!selection) throw new Error('useSelection outside SelectionProvider');
  return selection;
}

export function OrganizationPicker({ any = 'Choose…' }: { any?: string }) {
  const { organizationId, setOrganization } = useSelection();
  const orgs = useQuery(() => api.organizations.list.query(), []);
  return (
    <Select
      label="Organization"
      value={organizationId}
      any={any}
      options={(orgs.data ?? []).map((o) => ({ value: o.id, text: `${o.name} (${o.id.slice(0, 8)})` }))}
      onChange={setOrganization}
    />
  );
}

/** Integrations of the chosen organization, optionally of some providers only. */
export function IntegrationPicker({ providers, any = 'Choose…' }: { providers?: readonly string[]; any?: string }) {
  const { organizationId, integrationId, setIntegration } = useSelection();
  const list = useQuery(() => (organizationId ? api.integrations.list.query({ organizationId }) : Promise.resolve([])), [organizationId]);
  const options = (list.data ?? [])
    .filter((i) => !providers || providers.includes(i.provider))
    .map((i) => ({ value: i.id, text: `${i.provider} ${i.environment} (${i.id.slice(0, 8)})` }));
  return <Select label="Integration" value={integrationId} any={any} options={options} onChange={setIntegration} />;
}
