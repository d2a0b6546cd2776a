import { useState } from 'preact/hooks';
import { api, type Outputs } from '../api.js';
import { ConfirmButton, Empty, ErrorBox, Form, Maybe, Table, TextInput, Time } from '../components.js';
import { useAction, useQuery } from '../hooks.js';

type Detail = Outputs['invoices']['get'];
export type StoredLine = NonNullable<Detail['invoice']>['lineItems'][number];

/** Confirm a product code and unit (and optionally a commodity code) for one item of the connection, from an invoice line. */
export function ConfirmMapping({
  connectionRowId,
  itemId,
  line,
  onDone,
}: {
  connectionRowId: string;
  itemId: string;
  line: StoredLine;
  onDone: () => void;
}) {
  const [productCode, setProductCode] = useState(line.productCode ?? '');
  const [unitOfMeasure, setUnit] = useState(line.unitOfMeasure ?? '');
  const [commodityCode, setCommodity] = useState(line.commodityCode ?? '');
  const [evidence, setEvidence] = useState('');
  const [approvedBy, setApprovedBy] = useState('');
  const confirm = useAction();
  return (
    <Form
      label={`Confirm mapping of item ${itemId}`}
      onSubmit={() =>
        void confirm
          .run(() =>
            api.itemMappings.confirm.mutate({
              connectionRowId,
              sourceItemId: itemId,
              productCode,
              unitOfMeasure,
              ...(commodityCode ? { commodityCode } : {}),
              evidence,
              approvedBy,
            }),
          )
          .then((m) => m && onDone())
      }
    >
      <p class="form-title">
        Item <code>{itemId}</code> ({line.productName ?? line.description ?? 'no name'})
      </p>
      <TextInput label="Product code" value={productCode} onInput={setProductCode} required />
      <TextInput label="Unit of measure" value={unitOfMeasure} onInput={setUnit} required />
      <TextInput label="Commodity code" value={commodityCode} onInput={setCommodity} placeholder="optional" />
      <TextInput label="Evidence" value={evidence} onInput={setEvidence} required />
      <TextInput label="Approved by" value={approvedBy} onInput={setApprovedBy} required />
      <button type="submit" disabled={confirm.busy}>
        Confirm mapping
      </button>
      <ErrorBox error={confirm.error} />
    </Form>
  );
}

/** The confirmed mappings a revision used, with every version of their items; each can be revoked after a confirmation. */
export function MappingsTable({
  connectionRowId,
  used,
  onChanged,
}: {
  connectionRowId: string;
  used: Detail['provenance']['mappings'];
  onChanged: () => void;
}) {
  const revoke = useAction();
  const [version, setVersion] = useState(0);
  const items = [...new Set(used.map((m) => m.sourceItemId))];
  const mappings = useQuery(
    async () => (await Promise.all(items.map((sourceItemId) => api.itemMappings.list.query({ connectionRowId, sourceItemId })))).flat(),
    [connectionRowId, items.join(','), version],
  );
  if (used.length === 0) return <Empty>No confirmed mapping is used by this revision.</Empty>;
  return (
    <>
      <ErrorBox error={mappings.error ?? revoke.error} />
      <Table
        rows={mappings.data ?? []}
        rowKey={(m) => m.id}
        columns={[
          { header: 'Item', cell: (m) => m.sourceItemId },
          { header: 'Version', cell: (m) => m.version },
          { header: 'Product code', cell: (m) => m.productCode },
          { header: 'Unit', cell: (m) => m.unitOfMeasure },
          { header: 'Commodity', cell: (m) => <Maybe>{m.commodityCode}</Maybe> },
          {
            header: 'Approved',
            cell: (m) => (
              <>
                {m.approvedBy}, <Time iso={m.approvedAt} />
              </>
            ),
          },
          { header: 'Revoked', cell: (m) => <Time iso={m.revokedAt} /> },
          {
            header: 'Actions',
            hiddenHeader: true,
            cell: (m) =>
              !m.revokedAt && (
                <ConfirmButton
                  label="Revoke"
                  question={`Revoke version ${m.version} of item ${m.sourceItemId}? Its invoices lose readiness until confirmed again.`}
                  onConfirm={() =>
                    void revoke
                      .run(() => api.itemMappings.revoke.mutate({ id: m.id }))
                      .then((r) => {
                        if (!r) return;
                        setVersion((v) => v + 1);
                        onChanged();
                      })
                  }
                />
              ),
          },
        ]}
      />
    </>
  );
}
