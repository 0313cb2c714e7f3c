import { decoded, type SmtpCatcher, startSmtp } from '../server/test/smtp';

/**
 * The mailbox of a worker's demo server: a real SMTP server (server/test/smtp.ts) that the demo server
 * delivers to, so a test reads an e-mail as its recipient does, links included. (The Outbox screen shows
 * staff the same messages with the token of every link that grants something hidden.)
 */
export type Mail = { to: string[]; subject: string; text: string };

export type Mailbox = {
  url: string;
  /** The first delivered e-mail that matches, waiting for it to arrive. */
  waitFor(match: (mail: Mail) => boolean, timeoutMs?: number): Promise<Mail>;
  close(): Promise<void>;
};

function toMail(raw: string, to: string[]): Mail {
  const text = decoded(raw);
  // A long header is folded onto lines that start with white space: unfolding removes the line breaks.
  const subject = /^Subject: (.*(?:\r?\n[ \t].*)*)/m.exec(raw)?.[1].replace(/\r?\n(?=[ \t])/g, '') ?? '';
  return { to, subject, text };
}

export async function startMailbox(): Promise<Mailbox> {
  const smtp: SmtpCatcher = await startSmtp();
  return {
    url: smtp.url,
    async waitFor(match, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = smtp.received.map((m) => toMail(m.raw, m.to)).find(match);
        if (found) return found;
        if (Date.now() > deadline) throw new Error('No matching e-mail was delivered in time');
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    },
    close: () => smtp.close(),
  };
}
