import type { Sql } from '../db/client';
import { randomToken, sha256Hex } from './tokens';

export const SESSION_COOKIE = 'session';
export const SESSION_DAYS = 30;

/** An account id proven by a dashboard session (the branded twin of the API key's AccountId). */
export type SessionAccount = {
  id: string & { readonly __proven: 'session' };
  username: string;
  email: string;
  timezone: string;
};

/** Starts a session; returns the cookie value. Only its SHA-256 is stored. */
export async function createSession(db: Sql, accountId: string): Promise<string> {
  const token = randomToken();
  await db.query(
    `insert into sessions (account_id, token_hash, expires_at) values ($1, $2, now() + make_interval(days => $3))`,
    [accountId, sha256Hex(token), SESSION_DAYS],
  );
  return token;
}

export async function sessionAccount(db: Sql, token: string | undefined): Promise<SessionAccount | null> {
  if (!token || token.length > 100) return null;
  const { rows } = await db.query<SessionAccount>(
    `select a.id, a.username, a.email, a.timezone from sessions s join accounts a on a.id = s.account_id
     where s.token_hash = $1 and s.expires_at > now()`,
    [sha256Hex(token)],
  );
  return rows[0] ?? null;
}

export async function endSession(db: Sql, token: string | undefined): Promise<void> {
  if (token) await db.query('delete from sessions where token_hash = $1', [sha256Hex(token)]);
}
