import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

export interface TestSmtp {
  url: string;
  messages: ReceivedMail[];
  /** When true, every message is refused with 554 (delivery failure). */
  failing: boolean;
  close(): Promise<void>;
}

/** A real local SMTP server (smtp-server) that keeps what it receives, or refuses it on demand. */
export async function startTestSmtp(): Promise<TestSmtp> {
  const state = { messages: [] as ReceivedMail[], failing: false };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        if (state.failing) return callback(Object.assign(new Error('mailbox unavailable'), { responseCode: 554 }));
        state.messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.server.address() as AddressInfo).port;
  return Object.assign(state, {
    url: `smtp://127.0.0.1:${port}/?tls=off`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

/** The text of a quoted-printable/plain message with soft line breaks undone. */
export const mailText = (raw: string) => raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
