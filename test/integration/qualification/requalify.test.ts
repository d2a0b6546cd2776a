import { describe, expect, it } from 'vitest';
import { QUALIFICATION_RULES } from '../../../server/domain/qualification/rules-version.js';
import { useLedgerApp } from '../../support/ledger-app.js';
import { invoiceReader, waitForRun } from '../../support/ledger-flow.js';
import { preparationFlow } from '../../support/preparation-flow.js';

// docs/network-qualification.md, "How it is stored": invoices qualified by earlier rules (or before there were any)
// are qualified again at their connection's next sync, on the snapshot they have.
const app = useLedgerApp({ sandbox: { invoices: 3, items: 2 } });
const { sql, invoiceOf } = preparationFlow(app);

describe('qualification computed by earlier rules', () => {
  it('when invoices unchanged at the source were qualified by earlier rules or not at all, then the next sync qualifies them again on the same snapshot', async () => {
    const reader = await invoiceReader(app, 'gwc');
    const before = await invoiceOf(reader, '1001');
    const qualified = (before as any).qualification;
    expect(qualified).not.toBeNull();
    const stored = async () =>
      sql(
        `select si.ledger_invoice_id, si.current_snapshot_id, si.qualification_rules, s.qualification is null as unqualified
           from stored_invoices si join invoice_snapshots s on s.id = si.current_snapshot_id
          where si.connection_id = ? order by si.ledger_invoice_id`,
        [reader.connectionRowId],
      );
    const mapped = await stored();
    expect(mapped.map((r: any) => [r.qualification_rules, r.unqualified])).toEqual(mapped.map(() => [QUALIFICATION_RULES, false]));

    // As a release before qualification left them: no qualification, no rules noted.
    await sql(
      `update invoice_snapshots set qualification = null where id in (select current_snapshot_id from stored_invoices where connection_id = ?)`,
      [reader.connectionRowId],
    );
    await sql(`update stored_invoices set qualification_rules = 0 where connection_id = ?`, [reader.connectionRowId]);
    expect(((await invoiceOf(reader, '1001')) as any).qualification).toBeNull();
    const [{ count: snapshotsBefore }] = await sql(`select count(*)::int as count from invoice_snapshots where integration_id = ?`, [
      reader.ledger.integrationId,
    ]);

    const res = await app.request(`/api/v1/integrations/ledger/${reader.connectionId}/sync`, { method: 'POST', key: reader.ledger.key });
    expect(res.status).toBe(202);
    expect(await waitForRun(app, reader.ledger, reader.connectionId)).toMatchObject({ state: 'succeeded' });

    const after = await invoiceOf(reader, '1001');
    expect(after.snapshotId).toBe(before.snapshotId);
    expect((after as any).qualification).toEqual(qualified);
    const requalified = await stored();
    expect(requalified.map((r: any) => [r.ledger_invoice_id, r.current_snapshot_id, r.qualification_rules, r.unqualified])).toEqual(
      mapped.map((r: any) => [r.ledger_invoice_id, r.current_snapshot_id, QUALIFICATION_RULES, false]),
    );
    const [{ count: snapshotsAfter }] = await sql(`select count(*)::int as count from invoice_snapshots where integration_id = ?`, [
      reader.ledger.integrationId,
    ]);
    expect(snapshotsAfter).toBe(snapshotsBefore);
  });

  it('when anything but what is derived from a snapshot is updated, or nothing is, then the database refuses it: snapshots stay append-only', async () => {
    const reader = await invoiceReader(app, 'gwc');
    const invoice = await invoiceOf(reader, '1002');
    const refused = (statement: string) => expect(sql(statement, [invoice.snapshotId])).rejects.toThrow(/append-only/);
    await refused(`update invoice_snapshots set content = jsonb_set(content, '{invoice,invoiceNumber}', '"X-1"') where id = ?`);
    await refused(`update invoice_snapshots set revision = 'another', qualification = null where id = ?`);
    await refused(`delete from invoice_snapshots where id = ?`);
    // An update that changes nothing is no derived value changing either.
    await refused(`update invoice_snapshots set qualification = qualification where id = ?`);
    await sql(`update invoice_snapshots set qualification = qualification - 'gwb' where id = ?`, [invoice.snapshotId]);
    const [after] = await sql(`select qualification -> 'gwb' is not null as has from invoice_snapshots where id = ?`, [invoice.snapshotId]);
    expect(after.has).toBe(false);
  });
});
