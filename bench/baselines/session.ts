import { createHash } from 'node:crypto';
import type pg from 'pg';

/**
 * The session lookup of the bare baselines: the same query, rules and write as the product's
 * (server/modules/auth/sessions.ts), on plain pg with a named prepared statement.
 */
const IDLE_MS = 12 * 60 * 60 * 1000;
const LOOKUP = {
  name: 'bare_session_lookup',
  text: `select s.id as session_id, s.last_used_at, s.expires_at, u.*
         from sessions s join users u on u.id = s.user_id where s.token_hash = $1 limit 1`,
};

export type BareUser = {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  role: string;
  commission_rate_bp: number;
  is_active: boolean;
  customer_id: string | null;
  created_at: Date;
};

export function bearer(header: string | undefined): string | null {
  if (!header) return null;
  const [scheme, value] = header.split(' ');
  return scheme?.toLowerCase() === 'bearer' && value ? value : null;
}

export async function sessionUser(pool: pg.Pool, token: string | null): Promise<BareUser | null> {
  if (!token) return null;
  const hash = createHash('sha256').update(token).digest('hex');
  const { rows } = await pool.query({ ...LOOKUP, values: [hash] });
  const row = rows[0];
  if (!row) return null;
  const now = Date.now();
  if (row.expires_at.getTime() <= now || row.last_used_at.getTime() + IDLE_MS <= now || !row.is_active) {
    await pool.query('delete from sessions where id = $1', [row.session_id]);
    return null;
  }
  if (now - row.last_used_at.getTime() > 60_000) {
    await pool.query('update sessions set last_used_at = $1 where id = $2', [new Date(now), row.session_id]);
  }
  return row;
}

/** GET /api/auth/me's answer, key for key. */
export function userJson(u: BareUser): string {
  return JSON.stringify({
    id: u.id,
    firstName: u.first_name,
    lastName: u.last_name,
    email: u.email,
    role: u.role,
    commissionRate: u.commission_rate_bp / 10_000,
    isActive: u.is_active,
    customerId: u.customer_id,
    createdAt: u.created_at.toISOString(),
  });
}
