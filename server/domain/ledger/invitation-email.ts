import type { OutgoingMail } from './ports.js';

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The invitation message; the connect URL is the only secret in it and appears nowhere else. */
export function invitationEmail(o: { to: string; organizationName: string; connectUrl: string; expiresAt: Date }): OutgoingMail {
  const until = o.expiresAt.toISOString();
  return {
    to: o.to,
    subject: `${o.organizationName} asks you to connect its accounting data`,
    text:
      `${o.organizationName} asks you to authorize read access to its accounting company.\n\n` +
      `Open this link to review and approve on the accounting provider's own consent page:\n${o.connectUrl}\n\n` +
      `The link works once and expires at ${until}. You will never be asked for your accounting password here.\n`,
    html:
      `<p>${esc(o.organizationName)} asks you to authorize read access to its accounting company.</p>` +
      `<p><a href="${esc(o.connectUrl)}">Review and approve on the accounting provider's consent page</a></p>` +
      `<p>The link works once and expires at ${until}. You will never be asked for your accounting password here.</p>`,
  };
}
