import { describe, expect, it } from 'vitest';
import { useLedgerApp } from '../../support/ledger-app.js';
import { connectUrlFromMail, invite, ledgerTenant, uniqueEmail } from '../../support/ledger-flow.js';
import { createTenant, issueKey } from '../../support/tenants.js';
import { createMailer } from '../../../server/integrations/mail/mailer.js';
import { hashSecret } from '../../../server/crypto/secrets.js';

const app = useLedgerApp();
const path = '/api/v1/integrations/ledger/invitations';

describe('POST /api/v1/integrations/ledger/invitations', () => {
  it('when a valid request is sent, then 201 returns the invitation, the email carries the connect URL and only its hash is stored', async () => {
    const tenant = await ledgerTenant(app);
    const email = uniqueEmail();
    const before = Date.now();
    const res = await invite(app, tenant, {
      recipientEmail: email,
      expiresInHours: 2,
      organizationId: tenant.organizationId,
      environment: 'sandbox',
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      object: 'ledger.connection_invitation',
      invitation: {
        id: expect.any(String),
        organizationId: tenant.organizationId,
        environment: 'sandbox',
        organizationName: expect.stringMatching(/^Org /),
        recipientEmail: email,
        expiresAt: expect.any(String),
        connectUrl: expect.stringMatching(new RegExp(`^${app.url}/ledger/connect/[A-Za-z0-9_-]{43}$`)),
      },
    });
    expect('api_version' in res.body).toBe(false);
    const expires = Date.parse(res.body.invitation.expiresAt) - before;
    expect(expires).toBeGreaterThanOrEqual(2 * 3_600_000 - 1000);
    expect(expires).toBeLessThanOrEqual(2 * 3_600_000 + 5000);
    const mail = app.smtp.messages.find((m) => m.to.includes(email))!;
    expect(mail.from).toBe('no-reply@example.test');
    expect(connectUrlFromMail(mail.raw)).toBe(res.body.invitation.connectUrl);
    const secret = res.body.invitation.connectUrl.split('/').at(-1);
    const rows = await app.orm.em.getConnection().execute(`select * from ledger_invitations where id = ?`, [res.body.invitation.id]);
    expect(rows[0]).toMatchObject({ status: 'sent', secret_hash: hashSecret(secret) });
    expect(JSON.stringify(rows)).not.toContain(secret);
  });

  it('when the body carries requesterName and requesterEmail, then 201 and neither is stored nor mailed (spec: not used)', async () => {
    const tenant = await ledgerTenant(app);
    const email = uniqueEmail();
    const res = await invite(app, tenant, {
      recipientEmail: email,
      requesterName: 'Mallory Requester',
      requesterEmail: 'mallory.requester@attacker.test',
    });
    expect(res.status).toBe(201);
    expect(res.body.invitation.recipientEmail).toBe(email);
    expect(JSON.stringify(res.body)).not.toMatch(/Mallory|mallory\.requester/);
    const mail = app.smtp.messages.find((m) => m.to.includes(email))!;
    expect(mail.raw).not.toMatch(/Mallory|mallory\.requester|attacker\.test/);
    expect(mail.from).toBe('no-reply@example.test');
    const rows = await app.orm.em.getConnection().execute(`select * from ledger_invitations where id = ?`, [res.body.invitation.id]);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'sent', recipient_email: email });
    expect(JSON.stringify(rows)).not.toMatch(/Mallory|mallory\.requester|attacker\.test/);
  });

  it('when expiresInHours is omitted, then the invitation lasts 48 hours', async () => {
    const res = await invite(app, await ledgerTenant(app), { recipientEmail: uniqueEmail() });
    expect(res.status).toBe(201);
    expect(Math.round((Date.parse(res.body.invitation.expiresAt) - Date.now()) / 3_600_000)).toBe(48);
  });

  it.each([
    [{}, 'recipientEmail'],
    [{ recipientEmail: 'not-an-email' }, 'recipientEmail'],
    [{ recipientEmail: 'a@example.test', expiresInHours: 0 }, 'expiresInHours'],
    [{ recipientEmail: 'a@example.test', expiresInHours: 169 }, 'expiresInHours'],
    [{ recipientEmail: 'a@example.test', expiresInHours: 1.5 }, 'expiresInHours'],
    [{ recipientEmail: 'a@example.test', requesterName: 'Mallory', expiresInHours: 'soon' }, 'expiresInHours'],
    [{ recipientEmail: 'a@example.test', requester: 'Mallory' }, 'requester'],
  ])('when the body is %j, then 400 names %s', async (json, field) => {
    const res = await invite(app, await ledgerTenant(app), json);
    expect(res.status).toBe(400);
    expect(res.body.error.type).toBe('validation_error');
    expect(res.body.error.issues.map((i: { path: string }) => i.path)).toContain(field);
  });

  it('when a context assertion differs from the key, then 400 names it', async () => {
    const tenant = await ledgerTenant(app);
    for (const [json, field] of [
      [{ organizationId: crypto.randomUUID() }, 'organizationId'],
      [{ environment: 'production' }, 'environment'],
      [{ connectionId: '123' }, 'connectionId'],
    ] as const) {
      const res = await invite(app, tenant, { recipientEmail: uniqueEmail(), ...json });
      expect(res.status).toBe(400);
      expect(res.body.error.issues).toEqual([{ code: 'context_mismatch', path: field, message: `Does not match the API key's ${field}` }]);
    }
  });

  it('when the key is of another provider or lacks integrations:write, then 403; without a key 401', async () => {
    const gwc = await createTenant(app, { provider: 'gwc', scopes: ['payments:write'] });
    expect((await invite(app, gwc, { recipientEmail: uniqueEmail() })).status).toBe(403);
    const readOnly = await createTenant(app, { provider: 'ledger', scopes: ['integrations:read'] });
    expect((await invite(app, readOnly, { recipientEmail: uniqueEmail() })).status).toBe(403);
    expect((await app.request(path, { method: 'POST', json: { recipientEmail: uniqueEmail() } })).status).toBe(401);
    // The key's environment must match this (sandbox) deployment's.
    const production = await createTenant(app, { provider: 'ledger', scopes: ['integrations:write'], environment: 'production' });
    const wrongEnv = await invite(app, production, { recipientEmail: uniqueEmail() });
    expect(wrongEnv.status).toBe(403);
    expect(wrongEnv.body.error.type).toBe('permission_error');
  });

  it('when the organization is inactive, then 404 and nothing is sent', async () => {
    const tenant = await ledgerTenant(app);
    await app.orm.em.getConnection().execute(`update organizations set status = 'inactive' where id = ?`, [tenant.organizationId]);
    const email = uniqueEmail();
    const res = await invite(app, tenant, { recipientEmail: email });
    expect(res.status).toBe(404);
    expect(res.body.error.type).toBe('not_found');
    expect(app.smtp.messages.some((m) => m.to.includes(email))).toBe(false);
  });

  it('when the same email is invited again within 30 seconds, then 429 with Retry-After; another email is fine', async () => {
    const tenant = await ledgerTenant(app);
    const email = uniqueEmail();
    expect((await invite(app, tenant, { recipientEmail: email })).status).toBe(201);
    const again = await invite(app, tenant, { recipientEmail: email.toUpperCase() });
    expect(again.status).toBe(429);
    expect(again.body.error.type).toBe('rate_limited');
    expect(Number(again.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(again.headers.get('retry-after'))).toBeLessThanOrEqual(30);
    expect((await invite(app, tenant, { recipientEmail: uniqueEmail() })).status).toBe(201);
  });

  it('when the same email is invited concurrently, then exactly one succeeds', async () => {
    const tenant = await ledgerTenant(app);
    const email = uniqueEmail();
    const results = await Promise.all([1, 2, 3, 4].map(() => invite(app, tenant, { recipientEmail: email })));
    expect(results.map((r) => r.status).sort()).toEqual([201, 429, 429, 429]);
  });

  it('when the email cannot be delivered, then 502, the invitation is unusable and an immediate retry is allowed', async () => {
    const tenant = await ledgerTenant(app);
    const email = uniqueEmail();
    app.smtp.failing = true;
    try {
      const res = await invite(app, tenant, { recipientEmail: email });
      expect(res.status).toBe(502);
      expect(res.body.error.type).toBe('upstream_error');
    } finally {
      app.smtp.failing = false;
    }
    const rows = await app.orm.em.getConnection().execute(`select status from ledger_invitations where recipient_email = ?`, [email]);
    expect(rows).toEqual([{ status: 'failed' }]);
    expect((await invite(app, tenant, { recipientEmail: email })).status).toBe(201);
  });

  it('when SMTP_URL is smtp:// without ?tls=off and the server offers no STARTTLS, then nothing is sent in clear: 502 and the invitation is unusable', async () => {
    const tenant = await ledgerTenant(app);
    const email = uniqueEmail();
    const original = app.runtime.mailer;
    const url = new URL(app.smtp.url);
    url.search = '';
    app.runtime.mailer = createMailer({
      smtpUrl: url.toString(),
      from: 'svc <no-reply@example.test>',
      outboxDir: '/nonexistent',
      timeoutMs: 3000,
    });
    try {
      const res = await invite(app, tenant, { recipientEmail: email });
      expect(res.status).toBe(502);
      expect(res.body.error.type).toBe('upstream_error');
    } finally {
      app.runtime.mailer.close();
      app.runtime.mailer = original;
    }
    expect(app.smtp.messages.filter((m) => m.to.includes(email))).toEqual([]);
    const rows = await app.orm.em.getConnection().execute(`select status from ledger_invitations where recipient_email = ?`, [email]);
    expect(rows).toEqual([{ status: 'failed' }]);
    // With ?tls=off stated explicitly (the suite's own server), the same invitation goes out.
    expect((await invite(app, tenant, { recipientEmail: email })).status).toBe(201);
    expect(app.smtp.messages.filter((m) => m.to.includes(email))).toHaveLength(1);
  });

  it('when one API key sends more than 20 invitations in an hour, even all at once, then exactly 20 are created and the rest get 429 with Retry-After', async () => {
    const tenant = await ledgerTenant(app);
    const results = await Promise.all(Array.from({ length: 24 }, () => invite(app, tenant, { recipientEmail: uniqueEmail() })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(20);
    const limited = results.filter((r) => r.status === 429);
    expect(limited).toHaveLength(4);
    for (const r of limited) {
      expect(r.body.error).toMatchObject({
        type: 'rate_limited',
        message: expect.stringMatching(/^This API key created 20 invitations in the last hour; retry in \d+ s$/),
      });
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(3500);
      expect(Number(r.headers.get('retry-after'))).toBeLessThanOrEqual(3600);
    }
    const counted = await app.orm.em
      .getConnection()
      .execute(`select count(*)::int as n from ledger_invitations where api_key_id = ?`, [tenant.keyId]);
    expect(counted).toEqual([{ n: 20 }]);
    // The limit is per key: another key of the same integration may still invite.
    const other = await issueKey(app, tenant.integrationId, ['integrations:write', 'integrations:read']);
    expect((await invite(app, { ...tenant, key: other.key, keyId: other.id }, { recipientEmail: uniqueEmail() })).status).toBe(201);
    // Once the oldest invitations leave the hour, the key may invite again.
    await app.orm.em
      .getConnection()
      .execute(`update ledger_invitations set created_at = created_at - interval '1 hour' where api_key_id = ?`, [tenant.keyId]);
    expect((await invite(app, tenant, { recipientEmail: uniqueEmail() })).status).toBe(201);
  });

  it('when invitations were made, then the logs hold no connect secret, client secret or token key', async () => {
    const res = await invite(app, await ledgerTenant(app), { recipientEmail: uniqueEmail() });
    const secret = res.body.invitation.connectUrl.split('/').at(-1);
    await fetch(res.body.invitation.connectUrl, { redirect: 'manual' });
    expect(app.logs.text).not.toContain(secret);
    expect(app.logs.text).toContain('/ledger/connect/[redacted]');
    expect(app.logs.text).not.toContain(app.clientSecret);
    expect(app.logs.text).not.toContain(app.tokenKey);
  });
});
