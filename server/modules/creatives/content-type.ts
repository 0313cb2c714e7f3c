import type { Readable } from 'node:stream';
import type { CreativeKind } from '@shared/contracts/creatives';
import { fileTypeFromStream } from 'file-type/node';

export type DetectedType = { kind: CreativeKind; mimeType: string; extension: string };

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/**
 * The creative's type, decided by its content (file-type reads the signature and, for ZIP-based formats,
 * the entries), never by its name or the content type the browser sent. Accepted: images, videos, PDF,
 * Word documents (.docx, and .doc: a compound file holding a WordDocument stream, which an installer or
 * another compound file does not). Anything else, an executable or an HTML page included, is null.
 * `open` gives a fresh stream of the stored bytes each time it is called.
 */
export async function detectCreativeType(open: () => Promise<Readable>): Promise<DetectedType | null> {
  const stream = await open();
  let detected: Awaited<ReturnType<typeof fileTypeFromStream>>;
  try {
    detected = await fileTypeFromStream(stream);
  } finally {
    stream.destroy();
  }
  if (!detected) return null;
  const { mime, ext } = detected;
  if (mime.startsWith('image/')) return { kind: 'image', mimeType: mime, extension: ext };
  if (mime.startsWith('video/')) return { kind: 'video', mimeType: mime, extension: ext };
  if (mime === 'application/pdf') return { kind: 'pdf', mimeType: mime, extension: 'pdf' };
  if (mime === DOCX) return { kind: 'docx', mimeType: mime, extension: 'docx' };
  if (mime === 'application/x-cfb' && (await holdsWordDocumentStream(await open()))) {
    return { kind: 'doc', mimeType: 'application/msword', extension: 'doc' };
  }
  return null;
}

const HEADER_BYTES = 512;
const ENTRY_BYTES = 128;
/** "WordDocument" in UTF-16LE, as a compound file's directory entry names it. */
const WORD_DOCUMENT = Buffer.from('WordDocument', 'utf16le');

/**
 * Whether a compound file (MS-CFB) has a stream entry named "WordDocument" in its directory: the mark of
 * a Word 97-2003 document. Directory entries are 128 bytes, aligned to 128 within the sectors after the
 * 512-byte header; each is checked for the name, its length field (26 bytes, terminator included) and
 * the stream object type (2). Read as a stream: the file is never held in memory whole.
 */
async function holdsWordDocumentStream(stream: Readable): Promise<boolean> {
  let pending: Buffer = Buffer.alloc(0);
  let offset = 0; // the position in the file of pending[0]
  try {
    for await (const chunk of stream) {
      pending = pending.length ? Buffer.concat([pending, chunk as Buffer]) : (chunk as Buffer);
      let at = 0;
      if (offset < HEADER_BYTES) {
        if (offset + pending.length < HEADER_BYTES) continue;
        at = HEADER_BYTES - offset;
      }
      for (; at + ENTRY_BYTES <= pending.length; at += ENTRY_BYTES) {
        const entry = pending.subarray(at, at + ENTRY_BYTES);
        if (
          entry.subarray(0, WORD_DOCUMENT.length).equals(WORD_DOCUMENT) &&
          entry.readUInt16LE(64) === WORD_DOCUMENT.length + 2 &&
          entry[66] === 2
        ) {
          return true;
        }
      }
      offset += at;
      pending = pending.subarray(at);
    }
    return false;
  } finally {
    stream.destroy();
  }
}
