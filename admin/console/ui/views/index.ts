import type { FunctionComponent } from 'preact';
import { ConnectionsView } from './connections.js';
import { EvidenceView } from './evidence.js';
import { InvoicesView } from './invoices.js';
import { CorrelationExceptionsView, PaymentsView } from './payments.js';
import { SyncRunsView } from './sync-runs.js';
import { ApiKeysView } from './api-keys.js';
import { IntegrationsView } from './integrations.js';
import { OrganizationsView } from './organizations.js';
import { WebhooksView } from './webhooks.js';

export interface View {
  path: string;
  title: string;
  component: FunctionComponent;
}

/** The console's views, in walkthrough order; the path is the URL fragment (#/path). */
export const VIEWS: View[] = [
  { path: 'organizations', title: 'Organizations', component: OrganizationsView },
  { path: 'integrations', title: 'Integrations and links', component: IntegrationsView },
  { path: 'keys', title: 'API keys', component: ApiKeysView },
  { path: 'connections', title: 'Connections and invitations', component: ConnectionsView },
  { path: 'sync-runs', title: 'Sync runs', component: SyncRunsView },
  { path: 'invoices', title: 'Invoices', component: InvoicesView },
  { path: 'payments', title: 'Payments', component: PaymentsView },
  { path: 'correlation-exceptions', title: 'Correlation exceptions', component: CorrelationExceptionsView },
  { path: 'webhooks', title: 'Webhooks', component: WebhooksView },
  { path: 'evidence', title: 'Evidence', component: EvidenceView },
];
