import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Mailer, OutgoingMail } from '../../domain/ledger/ports.js';

export type { Mailer, OutgoingMail };

/**
 * Email through nodemailer: SMTP when `SMTP_URL` is set; otherwise each message is
 * written as an `.eml` file to `<SVC_DATA_DIR>/outbox/` that a person can open.
 */
export function createMailer(options: { smtpUrl: string | undefined; from: string; outboxDir: string; timeoutMs?: number }): Mailer {
  if (options.smtpUrl) {
    const url = new URL(options.smtpUrl);
    const timeout = options.timeoutMs ?? 15_000;
    const plain = url.searchParams.get('tls') === 'off';
    const transport = nodemailer.createTransport({
      host: url.hostname,
      port: Number(url.port || (url.protocol === 'smtps:' ? 465 : 587)),
      secure: url.protocol === 'smtps:',
      // Plain smtp:// must upgrade with STARTTLS (a server without it is refused) unless `?tls=off` says otherwise.
      ignoreTLS: plain,
      requireTLS: url.protocol === 'smtp:' && !plain,
      ...(url.username ? { auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } } : {}),
      connectionTimeout: timeout,
      greetingTimeout: timeout,
      socketTimeout: timeout,
    });
    return {
      send: async (mail) => {
        await transport.sendMail({ from: options.from, ...mail });
      },
      describe: () => `smtp ${url.hostname}:${url.port || (url.protocol === 'smtps:' ? 465 : 587)}`,
      close: () => transport.close(),
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    send: async (mail) => {
      const info = await transport.sendMail({ from: options.from, ...mail });
      mkdirSync(options.outboxDir, { recursive: true });
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${mail.to.replace(/[^A-Za-z0-9@._-]/g, '_')}.eml`;
      writeFileSync(path.join(options.outboxDir, name), info.message as Buffer, { mode: 0o600 });
    },
    describe: () => `outbox ${options.outboxDir}`,
    close: () => {},
  };
}
