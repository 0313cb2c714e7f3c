import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contracts } from '../../db/schema';
import { buildTestApp, type TestContext } from '../app';
import { createTestCustomer } from '../catalog-factories';
import { createTestUser, type TestUser } from '../factories';
import { multipartBody, PNG } from '../upload-fixtures';

/**
 * Uploads cannot be used to keep the server busy or fill its disk (decision 021): a body past the 10 MiB
 * limit is answered 413 at once and the connection closed, without reading on (over a real socket, so the
 * bytes the sender got rid of are counted); a user uploads at most CREATIVE_UPLOADS_PER_HOUR files an hour
 * (429 with Retry-After) and a customer keeps at most CREATIVE_STORAGE_MB (413); parallel uploads cannot
 * pass either cap together.
 */
const MiB = 1024 * 1024;
const PER_HOUR = 3;

type Signed = TestUser & { token: string };
let ctx: TestContext;
let dataDir: string;
let port = 0;

async function clientWithContract(): Promise<{ client: Signed; contractId: string }> {
  const customer = await createTestCustomer(ctx.db);
  const client = await ctx.signIn(await createTestUser(ctx.db, { role: 'client', customerId: customer.id }));
  const [contract] = await ctx.db
    .insert(contracts)
    .values({ customerId: customer.id, status: 'active', startDate: '2026-01-01', paymentMode: 'portal' })
    .returning();
  return { client, contractId: contract.id };
}

/** A PNG padded to `bytes` (its content is still detected as a PNG). */
const png = (bytes = PNG.length) => Buffer.concat([PNG, Buffer.alloc(Math.max(0, bytes - PNG.length))]);

function upload(who: Signed, contractId: string, content: Buffer) {
  const body = multipartBody([
    { name: 'contractId', value: contractId },
    { name: 'file', filename: 'banner.png', type: 'image/png', content },
  ]);
  return ctx.injectAs(who, { method: 'POST', url: '/api/client/creatives', ...body });
}

const storedFiles = () => {
  const dir = path.join(dataDir, 'uploads');
  return fs.existsSync(dir) ? fs.readdirSync(dir).length : 0;
};

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'adcrm-upload-limits-'));
  ctx = await buildTestApp({
    config: { DATA_DIR: dataDir, CREATIVE_UPLOADS_PER_HOUR: PER_HOUR, CREATIVE_STORAGE_MB: 1 },
  });
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  port = (ctx.app.server.address() as net.AddressInfo).port;
});
afterAll(async () => {
  await ctx.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

type Sent = { status: number; body: string; bytesWritten: number; closed: boolean };

/**
 * Streams a 200 MB upload over a socket, with a Content-Length or chunked, until the server answers or
 * closes, and counts the bytes written by then.
 */
function streamHugeUpload(token: string, contractId: string, framing: 'length' | 'chunked'): Promise<Sent> {
  const total = 200 * MiB;
  const boundary = 'adcrm-huge';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="contractId"\r\n\r\n${contractId}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="huge.png"\r\nContent-Type: image/png\r\n\r\n`,
  );
  const lengthHeader =
    framing === 'length' ? `Content-Length: ${head.length + total}\r\n` : 'Transfer-Encoding: chunked\r\n';
  const frame = (data: Buffer) =>
    framing === 'length'
      ? data
      : Buffer.concat([Buffer.from(`${data.length.toString(16)}\r\n`), data, Buffer.from('\r\n')]);
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let response = '';
    let bytesWritten = 0;
    let answered = false;
    let closed = false;
    const done = () => {
      const [statusLine = ''] = response.split('\r\n');
      resolve({
        status: Number(statusLine.split(' ')[1] ?? 0),
        body: response.slice(response.indexOf('\r\n\r\n') + 4),
        bytesWritten,
        closed,
      });
    };
    socket.on('data', (data) => {
      response += data.toString('latin1');
      answered = true;
    });
    socket.on('error', () => {}); // the server closing while we write: expected
    socket.on('close', () => {
      closed = true;
      done();
    });
    socket.on('connect', async () => {
      socket.write(
        `POST /api/client/creatives HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\n` +
          `Content-Type: multipart/form-data; boundary=${boundary}\r\n${lengthHeader}\r\n`,
      );
      socket.write(frame(head));
      const chunk = Buffer.alloc(256 * 1024, 0x61);
      try {
        while (bytesWritten < total && !answered && !socket.destroyed) {
          bytesWritten += chunk.length;
          if (!socket.write(frame(chunk))) {
            await new Promise<void>((drained) => {
              const resume = () => {
                socket.off('drain', resume);
                socket.off('close', resume);
                socket.off('data', resume);
                drained();
              };
              socket.on('drain', resume);
              socket.on('close', resume);
              socket.on('data', resume);
            });
          }
        }
        // Everything sent (the server read it all): let the answer come and close.
        if (!answered && !socket.destroyed) setTimeout(() => socket.end(), 30_000);
      } catch (error) {
        reject(error);
      }
    });
  });
}

describe('an oversize upload', () => {
  it('announced by its Content-Length is refused before its body is read, and the connection closes', async () => {
    const { client, contractId } = await clientWithContract();
    const before = storedFiles();
    const sent = await streamHugeUpload(client.token, contractId, 'length');
    expect(sent.status).toBe(413);
    expect(JSON.parse(sent.body)).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    expect(sent.closed).toBe(true);
    // Socket buffers take a few MiB before the writer has to wait; reading the body would take all 200.
    expect(sent.bytesWritten).toBeLessThan(20 * MiB);
    expect(storedFiles()).toBe(before);
  });

  it('sent chunked, without a length, is cut off at the limit: 413 at once, the rest never read', async () => {
    const { client, contractId } = await clientWithContract();
    const before = storedFiles();
    const sent = await streamHugeUpload(client.token, contractId, 'chunked');
    expect(sent.status).toBe(413);
    expect(JSON.parse(sent.body)).toMatchObject({
      message: 'The file is larger than 10 MB. Upload files of up to 10 MB each.',
    });
    expect(sent.closed).toBe(true);
    expect(sent.bytesWritten).toBeGreaterThan(10 * MiB);
    expect(sent.bytesWritten).toBeLessThan(30 * MiB);
    expect(storedFiles()).toBe(before);
  });
});

describe('the upload caps', () => {
  it(`accepts ${PER_HOUR} uploads an hour per user, then answers 429 with Retry-After and stores nothing`, async () => {
    const { client, contractId } = await clientWithContract();
    for (let i = 0; i < PER_HOUR; i++) expect((await upload(client, contractId, png())).statusCode).toBe(201);
    const before = storedFiles();
    const refused = await upload(client, contractId, png());
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toBe('You can upload 3 files per hour. Try again in 60 minutes.');
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(3500);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(refused.headers.connection).toBe('close');
    expect(storedFiles()).toBe(before);
  });

  it("refuses a file that would take the customer's creatives past the quota with 413", async () => {
    const { client, contractId } = await clientWithContract();
    expect((await upload(client, contractId, png(600 * 1024))).statusCode).toBe(201);
    const before = storedFiles();
    const refused = await upload(client, contractId, png(500 * 1024));
    expect(refused.statusCode).toBe(413);
    expect(refused.json().message).toBe(
      'Your creative storage is full (1 MB in all). Delete creatives you no longer need, or ask us for more room.',
    );
    expect(storedFiles()).toBe(before);
    // What still fits is accepted.
    expect((await upload(client, contractId, png(400 * 1024))).statusCode).toBe(201);
  });

  it('holds under parallel uploads: of 8 sent at once, exactly 3 are stored', async () => {
    const { client, contractId } = await clientWithContract();
    const before = storedFiles();
    const answers = await Promise.all(Array.from({ length: 8 }, () => upload(client, contractId, png())));
    const statuses = answers.map((answer) => answer.statusCode).sort();
    expect(statuses).toEqual([201, 201, 201, 429, 429, 429, 429, 429]);
    expect(storedFiles()).toBe(before + 3);
  });
});
