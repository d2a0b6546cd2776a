import { useState } from 'preact/hooks';
import { SyncStateSchema, type SyncState } from '../../../../contract/common/access.js';
import { api, type Outputs } from '../api.js';
import {
  ConfirmButton,
  DetailSection,
  DetailsButton,
  ErrorBox,
  Form,
  Id,
  Maybe,
  PagedList,
  Select,
  Table,
  TextInput,
  Time,
} from '../components.js';
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
          <Table
            rows={runs}
            rowKey={(r) => r.id}
            selected={selected}
            columns={[
              { header: 'Created', cell: (r) => <Time iso={r.createdAt} /> },
              { header: 'Company', cell: (r) => <code>{r.connectionId}</code> },
              {
                header: 'State',
                cell: (r) => (
                  <span class={`badge ${r.state}`} data-testid="run-state">
                    {r.state}
                  </span>
                ),
              },
              { header: 'Mode', cell: (r) => r.mode },
              { header: 'Entities done', cell: (r) => `${r.progress.entitiesDone}/${r.progress.entitiesTotal}` },
              { header: 'Records', cell: (r) => r.progress.recordsStored },
              {
                header: 'Details',
                hiddenHeader: true,
                cell: (r) => <DetailsButton label={`Details of run ${r.id.slice(0, 8)}`} onClick={() => setSelected(r.id)} />,
              },
            ]}
          />
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
          <Table
            rows={Object.entries(r.entities)}
            rowKey={([entity]) => entity}
            columns={[
              { header: 'Entity', rowHeader: true, cell: ([entity]) => entity },
              { header: 'State', cell: ([, p]) => p.state },
              { header: 'Pages', cell: ([, p]) => p.pages },
              { header: 'Fetched', cell: ([, p]) => p.fetched },
              { header: 'Created', cell: ([, p]) => p.created },
              { header: 'Updated', cell: ([, p]) => p.updated },
              { header: 'Unchanged', cell: ([, p]) => p.unchanged },
              { header: 'Deleted', cell: ([, p]) => p.deleted },
              {
                header: 'Cursor',
                cell: ([, p]) =>
                  p.cursor ? (
                    <>
                      position {p.cursor.startPosition}
                      {p.cursor.lastUpdatedTime && (
                        <>
                          , changed since <Time iso={p.cursor.lastUpdatedTime} />
                        </>
                      )}
                    </>
                  ) : (
                    <Maybe>{null}</Maybe>
                  ),
              },
              { header: 'Error', cell: ([, p]) => <Maybe>{p.error && `${p.error.code}: ${p.error.message}`}</Maybe> },
            ]}
          />
        </>
      )}
    </DetailSection>
  );
}
