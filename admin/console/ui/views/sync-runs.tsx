import { useState } from 'preact/hooks';
import { SyncStateSchema, type SyncState } from '../../../../contract/common/access.js';
import { api, type Outputs } from '../api.js';
import { ConfirmButton, ErrorBox, Form, Id, PagedList, Select, TextInput, Time, DetailSection } from '../components.js';
import { useAction, useInterval, usePaged, useQuery } from '../hooks.js';

type Run = Outputs['syncRuns']['get'];
const active = (state: string) => state === 'queued' || state === 'running';

export function SyncRunsView() {
  const [state, setState] = useState<SyncState | ''>('');
  const [connectionId, setConnectionId] = useState('');
  const [selected, setSelected] = useState<string | undefined>();
  const paged = usePaged(
    async (cursor) => {
      const page = await api.syncRuns.list.query({
        ...(state ? { state } : {}),
        ...(connectionId.trim() ? { connectionId: connectionId.trim() } : {}),
        ...(cursor ? { cursor } : {}),
      });
      return { items: page.data, nextCursor: page.nextCursor };
    },
    [state, connectionId],
  );
  // Queued or running runs move on their own: the list follows them.
  useInterval(
    paged.reload,
    1500,
    (paged.data?.items ?? []).some((r) => active(r.state)),
  );
  return (
    <>
      <Form label="Filter sync runs" onSubmit={() => undefined}>
        <Select label="State" value={state} any="Any state" options={SyncStateSchema.options} onChange={setState} />
        <TextInput label="Company (connectionId)" value={connectionId} onInput={setConnectionId} type="search" />
      </Form>
      <PagedList paged={paged} caption="Sync runs" empty="No sync runs match these filters.">
        {(runs) => (
          <table>
            <thead>
              <tr>
                <th scope="col">Created</th>
                <th scope="col">Company</th>
                <th scope="col">State</th>
                <th scope="col">Mode</th>
                <th scope="col">Entities done</th>
                <th scope="col">Records</th>
                <th scope="col">
                  <span class="sr-only">Details</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {runs.map((r) => (
                <tr key={r.id} class={r.id === selected ? 'selected' : undefined}>
                  <td>
                    <Time iso={r.createdAt} />
                  </td>
                  <td>
                    <code>{r.connectionId}</code>
                  </td>
                  <td>
                    <span class={`badge ${r.state}`} data-testid="run-state">
                      {r.state}
                    </span>
                  </td>
                  <td>{r.mode}</td>
                  <td>
                    {r.progress.entitiesDone}/{r.progress.entitiesTotal}
                  </td>
                  <td>{r.progress.recordsStored}</td>
                  <td>
                    <button type="button" onClick={() => setSelected(r.id)} aria-label={`Details of run ${r.id.slice(0, 8)}`}>
                      Details
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </PagedList>
      {selected && <RunDetail id={selected} />}
    </>
  );
}

function RunDetail({ id }: { id: string }) {
  const run = useQuery(() => api.syncRuns.get.query({ id }), [id]);
  const fail = useAction();
  useInterval(run.reload, 1000, run.data !== undefined && active(run.data.state));
  const r: Run | undefined = run.data;
  return (
    <DetailSection label="Sync run detail" subject={id}>
      <h2>
        Run <Id id={id} />
      </h2>
      <ErrorBox error={run.error ?? fail.error} />
      {r && (
        <>
          <dl class="facts">
            <dt>State</dt>
            <dd>
              <span class={`badge ${r.state}`} data-testid="detail-state">
                {r.state}
              </span>
              {active(r.state) && <span class="muted"> (refreshing)</span>}
            </dd>
            <dt>Company</dt>
            <dd>
              <code>{r.connectionId}</code>
            </dd>
            <dt>Mode</dt>
            <dd>
              {r.mode}
              {r.fullReconciliation ? ', full reconciliation' : ''}
            </dd>
            <dt>Source period</dt>
            <dd>
              <Time iso={r.sourcePeriodStart} /> – <Time iso={r.sourcePeriodEnd} />
            </dd>
            <dt>Started</dt>
            <dd>
              <Time iso={r.startedAt} />
            </dd>
            <dt>Completed</dt>
            <dd>
              <Time iso={r.completedAt} />
            </dd>
            <dt>Error</dt>
            <dd>{r.error ? `${r.error.code}: ${r.error.message}` : <span class="muted">none</span>}</dd>
          </dl>
          {active(r.state) && (
            <ConfirmButton
              label="Fail run"
              question="Mark this run failed? A new sync request then queues a new run."
              onConfirm={() => void fail.run(() => api.syncRuns.fail.mutate({ id })).then(run.reload)}
            />
          )}
          <h3>Entities</h3>
          <table>
            <thead>
              <tr>
                <th scope="col">Entity</th>
                <th scope="col">State</th>
                <th scope="col">Pages</th>
                <th scope="col">Fetched</th>
                <th scope="col">Created</th>
                <th scope="col">Updated</th>
                <th scope="col">Unchanged</th>
                <th scope="col">Deleted</th>
                <th scope="col">Cursor</th>
                <th scope="col">Error</th>
              </tr>
            </thead>
            <tbody>
              {Object.entries(r.entities).map(([entity, p]) => (
                <tr key={entity}>
                  <th scope="row">{entity}</th>
                  <td>{p.state}</td>
                  <td>{p.pages}</td>
                  <td>{p.fetched}</td>
                  <td>{p.created}</td>
                  <td>{p.updated}</td>
                  <td>{p.unchanged}</td>
                  <td>{p.deleted}</td>
                  <td>
                    {p.cursor ? (
                      <>
                        position {p.cursor.startPosition}
                        {p.cursor.lastUpdatedTime && (
                          <>
                            , changed since <Time iso={p.cursor.lastUpdatedTime} />
                          </>
                        )}
                      </>
                    ) : (
                      <span class="muted">—</span>
                    )}
                  </td>
                  <td>{p.error ? `${p.error.code}: ${p.error.message}` : <span class="muted">—</span>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </DetailSection>
  );
}
