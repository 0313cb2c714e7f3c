import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError, badRequest } from './errors';

/**
 * A route that takes one file as multipart/form-data (the scope registers @fastify/multipart with `files: 1`
 * and `fileSize` its limit) and answers from its bytes, with every refusal in the route's own words.
 */
export type SingleFileUpload = {
  /** The largest file taken, in bytes: a request whose Content-Length is well over it is refused unread. */
  maxBytes: number;
  /** The form field named by the 400 of a missing or empty file. */
  field: string;
  messages: {
    /** 413: the file (or the request) is over the limit. */
    tooLarge: string;
    /** 415 for a body that is not multipart, 400 for a malformed one. */
    notMultipart: string;
    /** 400: more than one file. */
    oneFile: string;
    /** 400: no file, or an empty one. */
    missing: string;
  };
};

/** Room for the multipart framing (boundaries, part headers) beside the file itself. */
const FRAMING_BYTES = 64 * 1024;

/**
 * Reads the one file of a multipart request and answers what `use` makes of its bytes. Whatever goes wrong,
 * reading or using it, closes the connection (the rest of an upload may be unread) and is answered as the
 * sender's mistake when the parser refused the upload: never a 500 for a malformed form.
 */
export async function withSingleFile<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  upload: SingleFileUpload,
  use: (bytes: Buffer) => Promise<T>,
): Promise<T> {
  const { messages } = upload;
  try {
    if (Number(request.headers['content-length']) > upload.maxBytes + FRAMING_BYTES) {
      throw new AppError('PAYLOAD_TOO_LARGE', messages.tooLarge);
    }
    if (!request.isMultipart()) throw new AppError('UNSUPPORTED_MEDIA_TYPE', messages.notMultipart);
    let bytes: Buffer | null = null;
    for await (const part of request.parts()) {
      if (part.type !== 'file') continue;
      if (bytes !== null) throw badRequest(messages.oneFile);
      bytes = await part.toBuffer();
    }
    if (!bytes || bytes.length === 0) throw badRequest(messages.missing, { [upload.field]: [messages.missing] });
    return await use(bytes);
  } catch (error) {
    reply.header('connection', 'close');
    throw uploadError(error, upload);
  }
}

/** The multipart parser's limits and failures, in the route's words: a malformed upload is the sender's, never a 500. */
function uploadError(error: unknown, { messages }: SingleFileUpload): unknown {
  if (error instanceof AppError) return error;
  switch ((error as { code?: string }).code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return new AppError('PAYLOAD_TOO_LARGE', messages.tooLarge);
    case 'FST_FILES_LIMIT':
      return badRequest(messages.oneFile);
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
    case 'FST_PROTO_VIOLATION':
    case 'FST_REQ_PREMATURE_CLOSE':
      return badRequest(messages.notMultipart);
    default:
      if (error instanceof Error && /multipart|boundary|Unexpected end|Malformed/i.test(error.message)) {
        return badRequest(messages.notMultipart);
      }
      return error;
  }
}
