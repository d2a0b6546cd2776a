import { describe, expect, it } from 'vitest';
import { deliverGwc, gwcEvent, newPaymentIntentId, newSecret, paymentIntent, signed } from '../../support/gwc-webhooks.js';
import { useLedgerApp } from '../../support/ledger-app.js';
import { invoiceReader } from '../../support/ledger-flow.js';
import { bodyFor, preparationFlow, type Reader, confirmMapping } from '../../support/preparation-flow.js';
import { currentUtcMonth } from '../../support/utc-month.js';

// docs/network-qualification.md, "Where it shows". Four generated invoices over six items (2 lines each):
// 1001 items 3+4, 1002 items 4+5, 1003 items 5+6. Item 5's mapping has no commodity code at first; item 6 none at all.
const app = useLedgerApp({ sandbox: { invoices: 4, items: 6 } });
const { sql, post, invoiceOf } = preparationFlow(app);

const { range: thisMonth, month: MONTH } = currentUtcMonth();

const confirm = (reader: Reader, sourceItemId: string, productCode: string, unitOfMeasure: string, commodityCode?: string) =>
  confirmMapping(app, reader.connectionRowId, { sourceItemId, productCode, unitOfMeasure, commodityCode });

async function prepare(reader: Reader, ledgerInvoiceId: string, mode: 'enhanced' | 'ordinary') {
  const invoice = await invoiceOf(reader, ledgerInvoiceId);
  const res = await post(reader.key, 'gwcPreparation', bodyFor(invoice));
  expect(res.status).toBe(200);
  expect(res.body.data.mode).toBe(mode);
  return { id: res.body.preparation.id as string, amount: invoice.totalAmountMinor };
}

/** A provider-verified capture of the preparation: gwc's signed `payment_intent.succeeded` naming it. */
async function verify(reader: Reader, preparation: { id: string; amount: number }) {
  const secret = newSecret();
  const endpoint = (await app.admin<any>('webhookEndpoints.create', { integrationId: reader.integrationId, signingSecret: secret })).body;
  const amount = preparation.amount;
  const event = gwcEvent(
    'payment_intent.succeeded',
    paymentIntent({
      id: newPaymentIntentId(),
      amount,
      amount_received: amount,
      status: 'succeeded',
      metadata: { svc_preparation_id: preparation.id },
    }),
    { created: Math.floor(Date.now() / 1000) - 60 },
  );
  expect((await deliverGwc(app, new URL(endpoint.url).pathname, signed(secret, event))).body).toMatchObject({ status: 'captured' });
}

const levelOf = async (preparationId: string) => {
  const [p] = await sql(`select qualification_level from preparations where id = ?`, [preparationId]);
  const [e] = await sql(`select qualification_level from preparation_evidence where preparation_id = ?`, [preparationId]);
  return [p.qualification_level, e.qualification_level];
};

describe('qualification: a preparation records its level; operators see levels per month and the fixes', () => {
  it('when preparations are saved, verified and the invoice mapped again, then each keeps the level it was prepared at, and the summary and fixes count them exactly', async () => {
    const reader = await invoiceReader(app, 'gwc');
    await confirm(reader, '3', 'SKU-00003', 'EA', '43211503');
    await confirm(reader, '4', 'SKU-00004', 'BX', '43211507');
    await confirm(reader, '5', 'P-5', 'EA');

    // gwc's invoice-backed output never sends the buyer's PO (customer_reference): partial at best.
    const a = await prepare(reader, '1001', 'enhanced'); // partial
    const b = await prepare(reader, '1002', 'enhanced'); // partial: item 5 has no commodity code either
    const c = await prepare(reader, '1003', 'ordinary'); // none: item 6 has no unit
    expect(await levelOf(a.id)).toEqual(['partial', 'partial']);
    expect(await levelOf(b.id)).toEqual(['partial', 'partial']);
    expect(await levelOf(c.id)).toEqual(['none', 'none']);
    await verify(reader, a);

    // Mapped again: 1002 no longer misses item 5's commodity code; the preparation made before keeps what it recorded.
    const missingOf = async (id: string) =>
      ((await invoiceOf(reader, id)) as any).qualification.gwc.missing.map((m: any) => [m.field, m.reason, m.source?.externalId ?? null]);
    expect(await missingOf('1002')).toContainEqual(['commodity_code', 'not_in_source', '5']);
    await confirm(reader, '5', 'P-5', 'EA', '43211508');
    expect(await missingOf('1002')).toEqual([['customer_code', 'not_mapped', '1002']]);
    expect(await levelOf(b.id)).toEqual(['partial', 'partial']);
    const d = await prepare(reader, '1002', 'enhanced');
    expect(await levelOf(d.id)).toEqual(['partial', 'partial']);

    const summary = await app.admin<any>('qualification.summary', { organizationId: reader.ledger.organizationId, ...thisMonth });
    expect(summary.status).toBe(200);
    expect(summary.body).toEqual({
      ...thisMonth,
      timeZone: 'UTC',
      rows: [
        { month: MONTH, level: 'partial', currency: 'usd', preparations: 3, verifiedPreparations: 1, verifiedNetMinor: String(a.amount) },
        { month: MONTH, level: 'none', currency: 'usd', preparations: 1, verifiedPreparations: 0, verifiedNetMinor: '0' },
      ],
    });
    // Another organization's preparations are not counted.
    const other = await app.admin<any>('qualification.summary', { organizationId: crypto.randomUUID(), ...thisMonth });
    expect(other.body.rows).toEqual([]);

    // Fixes read each prepared invoice as it stands now: item 5's commodity code is fixed and no longer listed; 1003 misses
    // item 6's unit (which alone lifts it from none to partial) and commodity code (which lifts it only with the unit).
    const fixes = await app.admin<any>('qualification.fixes', { integrationId: reader.integrationId, ...thisMonth });
    expect(fixes.status).toBe(200);
    const mapping = (externalId: string, field: string) => ({ objectType: 'ItemMapping', externalId, field });
    const invoice1003 = await invoiceOf(reader, '1003');
    const behind = (alone: boolean) => [
      {
        storedInvoiceId: invoice1003.id,
        ledgerInvoiceId: '1003',
        snapshotId: invoice1003.snapshotId,
        amountMinor: String(c.amount),
        alone,
        preparationIds: [c.id],
      },
    ];
    expect(fixes.body).toEqual({
      ...thisMonth,
      fixes: [
        {
          rank: 1,
          kind: 'missing',
          code: 'unit_of_measure',
          source: mapping('6', 'unitOfMeasure'),
          currency: 'usd',
          liftsMinor: String(c.amount),
          withOtherFixesMinor: '0',
          invoiceCount: 1,
          preparations: 1,
          invoices: behind(true),
        },
        {
          rank: 2,
          kind: 'missing',
          code: 'commodity_code',
          source: mapping('6', 'commodityCode'),
          currency: 'usd',
          liftsMinor: '0',
          withOtherFixesMinor: String(c.amount),
          invoiceCount: 1,
          preparations: 1,
          invoices: behind(false),
        },
      ],
    });
    const top = await app.admin<any>('qualification.fixes', { integrationId: reader.integrationId, ...thisMonth, limit: 1 });
    expect(top.body.fixes.map((f: any) => f.source)).toEqual([mapping('6', 'unitOfMeasure')]);

    // Made at the source, a fix leaves the list.
    await confirm(reader, '6', 'P-6', 'EA', '43211509');
    const afterFix = await app.admin<any>('qualification.fixes', { integrationId: reader.integrationId, ...thisMonth });
    expect(afterFix.body.fixes).toEqual([]);
  });

  it('when a snapshot holds the qualification in a form stored before, or a risk finding by index, then the invoice and the fixes read every form alike', async () => {
    const reader = await invoiceReader(app, 'gwc');
    // 1004 (items 6 and 1): item 1's product code is a placeholder (a risk), and it has no commodity code.
    await confirm(reader, '1', 'ITEM', 'EA');
    await confirm(reader, '6', 'SKU-00006', 'EA', '43211504');
    const invoice = await invoiceOf(reader, '1004');
    const qualification = (invoice as any).qualification;
    expect(qualification.gwc.level).toBe('partial');
    const [current] = await sql(`select qualification from invoice_snapshots where id = ?`, [invoice.snapshotId]);
    // Stored once for the two outputs that carry it, and each names it by index.
    expect(current.qualification.riskFindings).toEqual(qualification.gwc.risks);
    expect(current.qualification.gwa.risks).toEqual([0]);
    expect(current.qualification.gwc.risks).toEqual([0]);
    const first = await prepare(reader, '1004', 'enhanced');

    // The same content under new revisions, its qualification in the forms snapshots were stored in before: each
    // provider's lists of objects (what endpoint 9 shows, no cross-invoice finding being stored for this invoice), and
    // each distinct missing field as a tuple of its explanation, the providers by index.
    const earlierSnapshot = async (revision: string, stored: unknown) => {
      const [row] = await sql(
        `insert into invoice_snapshots (id, organization_id, integration_id, environment, stored_invoice_id, revision, mapper_version, source_version, content, issues, dependencies, mappings, qualification, created_at)
         select gen_random_uuid(), organization_id, integration_id, environment, stored_invoice_id, ?, mapper_version, source_version, content, issues, dependencies, mappings, ?::jsonb, now()
           from invoice_snapshots where id = ? returning id`,
        [revision, JSON.stringify(stored), invoice.snapshotId],
      );
      await sql(`update stored_invoices set current_snapshot_id = ?, revision = ? where id = ?`, [row.id, revision, invoice.id]);
      const reread = await invoiceOf(reader, '1004');
      expect(reread.snapshotId).toBe(row.id);
      expect((reread as any).qualification).toEqual(qualification);
      const prepared = await prepare(reader, '1004', 'enhanced');
      expect(await levelOf(prepared.id)).toEqual(['partial', 'partial']);
      const [pinned] = await sql(`select snapshot_id from preparations where id = ?`, [prepared.id]);
      expect(pinned.snapshot_id).toBe(row.id);
      // The fixes read the current snapshot in this form as in the form of now.
      const fixes = await app.admin<any>('qualification.fixes', { integrationId: reader.integrationId, ...thisMonth });
      expect(fixes.body.fixes).toEqual(fixesNaming([...earlier, prepared.id], prepared.amount, row.id));
      earlier.push(prepared.id);
      return prepared;
    };
    // gwc misses item 1's commodity code (the only gap the source can fix) and carries its placeholder product code (its
    // only risk): each fix alone lifts the invoice.
    const fixesNaming = (preparationIds: string[], amount: number, snapshotId = invoice.snapshotId) =>
      (
        [
          ['missing', 'commodity_code', 'commodityCode'],
          ['risk', 'generic_product_code', 'productCode'],
        ] as const
      ).map(([kind, code, field], i) => ({
        rank: i + 1,
        kind,
        code,
        source: { objectType: 'ItemMapping', externalId: '1', field },
        currency: 'usd',
        liftsMinor: String(amount),
        withOtherFixesMinor: '0',
        invoiceCount: 1,
        preparations: preparationIds.length,
        invoices: [
          { storedInvoiceId: invoice.id, ledgerInvoiceId: '1004', snapshotId, amountMinor: String(amount), alone: true, preparationIds },
        ],
      }));
    const earlier = [first.id];
    expect((await app.admin<any>('qualification.fixes', { integrationId: reader.integrationId, ...thisMonth })).body.fixes).toEqual(
      fixesNaming([first.id], first.amount),
    );
    const second = await earlierSnapshot('rev-objects-form', qualification);
    const tupleOf = (m: any) => [
      m.field,
      m.reason,
      m.path,
      m.source?.objectType ?? null,
      m.source?.externalId ?? null,
      m.source?.field ?? null,
    ];
    const tuples = [...new Set(['gwa', 'gwb', 'gwc'].flatMap((p) => qualification[p].missing.map((m: any) => JSON.stringify(tupleOf(m)))))];
    const byIndex = (p: string) => ({
      level: qualification[p].level,
      missing: qualification[p].missing.map((m: any) => tuples.indexOf(JSON.stringify(tupleOf(m)))),
      risks: qualification[p].risks.map(() => 0),
    });
    const third = await earlierSnapshot('rev-tuples-form', {
      gwa: byIndex('gwa'),
      gwb: byIndex('gwb'),
      gwc: byIndex('gwc'),
      missingFields: tuples.map((t) => JSON.parse(t)),
      riskFindings: qualification.gwc.risks,
    });

    // The last check above: each fix counted the invoice once, at its latest preparation's amount, with its three
    // preparations behind it.
    expect(earlier).toEqual([first.id, second.id, third.id]);
  });

  it('when the input is invalid, then BAD_REQUEST names the field, as the other operator procedures do', async () => {
    const cases: [string, Record<string, unknown>, string[]][] = [
      ['qualification.summary', { from: thisMonth.to, to: thisMonth.from }, ['to']],
      ['qualification.summary', { ...thisMonth, organizationId: 'not-a-uuid' }, ['organizationId']],
      ['qualification.summary', { ...thisMonth, from: '2026-11-01' }, ['from']],
      ['qualification.fixes', { ...thisMonth, limit: 0 }, ['limit']],
      ['qualification.fixes', { ...thisMonth, limit: 101 }, ['limit']],
      ['qualification.fixes', { ...thisMonth, provider: 'gwa' }, ['provider']],
    ];
    for (const [procedure, input, paths] of cases) {
      const res = await app.admin<any>(procedure, input);
      expect(res.status, procedure).toBe(400);
      expect(res.body.error.data.code).toBe('BAD_REQUEST');
      expect(res.body.error.data.issues.map((i: any) => i.path)).toEqual(paths);
    }
  });
});
