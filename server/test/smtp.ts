import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export type ReceivedMail = {
  from: string;
  to: string[];
  raw: string;
  /** The message's Message-ID header as sent, e.g. `<id@adcrm.local>`; null when it has none. */
  messageId: string | null;
};

export type SmtpCatcher = {
  /** Every message accepted so far, in the order it arrived. */
  received: ReceivedMail[];
  /** Connections that broke mid-message (a client killed while sending): those messages were not accepted. */
  connectionErrors: Error[];
  port: number;
  url: string;
  close(): Promise<void>;
};

export type SmtpOptions = {
  /** Recipients refused at RCPT TO (550), as a real server refuses an unknown mailbox. */
  rejectRecipients?: readonly string[];
  /** Awaited before a message is accepted (the server's answer to its DATA waits for it). */
  beforeAccept?: (mail: ReceivedMail) => Promise<void> | void;
};

/** The Message-ID header of a raw message (headers unfolded), or null. */
export function messageIdOf(raw: string): string | null {
  const end = raw.search(/\r?\n\r?\n/);
  const headers = (end < 0 ? raw : raw.slice(0, end)).replace(/\r?\n[ \t]+/g, ' ');
  return /^Message-ID:\s*(\S+)/im.exec(headers)?.[1] ?? null;
}

/** A real SMTP server on a free local port, keeping every message it accepts. */
export async function startSmtp(options: SmtpOptions = {}): Promise<SmtpCatcher> {
  const received: ReceivedMail[] = [];
  const connectionErrors: Error[] = [];
  const rejected = new Set((options.rejectRecipients ?? []).map((address) => address.toLowerCase()));
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (!rejected.has(address.address.toLowerCase())) return callback();
      const error = new Error(`Mailbox unavailable: ${address.address}`) as Error & { responseCode: number };
      error.responseCode = 550;
      callback(error);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const mail: ReceivedMail = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          messageId: messageIdOf(raw),
        };
        Promise.resolve(options.beforeAccept?.(mail)).then(
          () => {
            received.push(mail);
            callback();
          },
          (error: Error) => callback(error),
        );
      });
    },
  });
  // A client that goes away during a transaction resets its connection, and smtp-server reports that as an
  // 'error' event (an uncaught exception without a listener). A real server drops the connection and keeps
  // serving; the message was not accepted, so the client sends it again.
  server.on('error', (error) => connectionErrors.push(error));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    received,
    connectionErrors,
    port,
    url: `smtp://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The message as a reader sees it: quoted-printable soft breaks joined and escapes decoded. */
export function decoded(raw: string): string {
  return raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}
