import type { FastifyReply } from 'fastify';

/** A page of a list: the body stays the JSON array the screens read; the total travels in X-Total-Count. */
export function sendPage<T>(reply: FastifyReply, page: { rows: T[]; total: number }): T[] {
  reply.header('X-Total-Count', String(page.total));
  return page.rows;
}

/** Escapes LIKE wildcards in user search text. */
export function likePattern(q: string): string {
  return `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
