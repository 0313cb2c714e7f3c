import net from 'node:net';
import nodemailer from 'nodemailer';
import { afterEach, describe, expect, it } from 'vitest';
import { type SmtpCatcher, startSmtp } from './smtp';

/** Speaks SMTP up to the middle of a message's data, then resets the connection, as a killed sender does. */
async function resetMidMessage(port: number): Promise<void> {
  const socket = net.connect(port, '127.0.0.1');
  let answers = '';
  const answered = (count: number) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (answers.split('\r\n').filter(Boolean).length >= count) {
          socket.off('data', check);
          resolve();
        }
      };
      socket.on('data', check);
      socket.once('error', reject);
      check();
    });
  socket.on('data', (chunk: Buffer) => {
    answers += chunk.toString('utf8');
  });
  await answered(1); // greeting
  socket.write('HELO sender.example.test\r\n');
  await answered(2);
  socket.write('MAIL FROM:<sender@example.test>\r\n');
  await answered(3);
  socket.write('RCPT TO:<someone@example.test>\r\n');
  await answered(4);
  socket.write('DATA\r\n');
  await answered(5);
  expect(answers).toMatch(/^354 /m);
  socket.write('Subject: half a message\r\n\r\nThe sender dies here');
  // The server reads the first part of the message before the reset arrives (mid-transaction, not at the start).
  await new Promise((resolve) => setTimeout(resolve, 200));
  await new Promise<void>((resolve) => {
    socket.once('close', () => resolve());
    socket.resetAndDestroy();
  });
}

describe('the test SMTP server', () => {
  let smtp: SmtpCatcher | undefined;
  afterEach(async () => {
    await smtp?.close();
    smtp = undefined;
  });

  it('keeps serving when a sender resets its connection mid-message, and accepts nothing of it', async () => {
    smtp = await startSmtp();
    await resetMidMessage(smtp.port);
    await expect
      .poll(() => smtp!.connectionErrors.map((error) => (error as Error & { code?: string }).code))
      .toEqual(['ECONNRESET']);

    const transport = nodemailer.createTransport({
      host: '127.0.0.1',
      port: smtp.port,
      secure: false,
      ignoreTLS: true,
    });
    await transport.sendMail({
      from: 'sender@example.test',
      to: 'someone@example.test',
      subject: 'a whole message',
      text: 'arrives',
    });
    transport.close();
    expect(smtp.received.map((mail) => mail.raw.match(/^Subject: (.*)$/m)?.[1])).toEqual(['a whole message']);
  });
});
