import type { FastifyReply } from 'fastify';

/**
 * A page of a list: the body stays the JSON array the screens read; the total travels in X-Total-Count.
 * A bounded count (there are at least `total`, maybe more) adds `X-Total-Count-Lower-Bound: true`.
 */
export function sendPage<T>(reply: FastifyReply, page: { rows: T[]; total: number; totalIsLowerBound?: boolean }): T[] {
  reply.header('X-Total-Count', String(page.total));
  if (page.totalIsLowerBound) reply.header('X-Total-Count-Lower-Bound', 'true');
  return page.rows;
}

/** Escapes LIKE wildcards in user search text. */
export function likePattern(q: string): string {
  return `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
