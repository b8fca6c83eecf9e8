import { hexDigestsEqual } from '../auth/tokens';
import type { Sql } from '../db/client';
import { ApiError } from '../http/errors';
import { hashKey, type KeyType, keyTypeOf, type Scope } from './keys';

/** An account id proven by a verified API key: queries that must be tenant-scoped take this, not a string. */
export type AccountId = string & { readonly __proven: 'account' };

export type AuthenticatedKey = { id: string; accountId: AccountId; type: KeyType; scopes: readonly Scope[] };

export const MISSING_KEY = 'Missing API key. Send `Authorization: Bearer <key>` or `x-service-key` header.';

/** The key a request presents: `Authorization: Bearer <key>` first, then `x-service-key`. */
export function presentedKey(headers: Headers): string | null {
  const authorization = headers.get('authorization');
  const bearer = authorization ? /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1] : undefined;
  if (bearer) return bearer;
  const header = headers.get('x-service-key')?.trim();
  return header ? header : null;
}

type KeyRow = {
  id: string;
  account_id: string;
  type: KeyType;
  scopes: Scope[];
  secret_hash: string;
  revoked: boolean;
  expired: boolean;
};

/** Spec, Authentication 7: 401 for a missing, unknown, revoked or expired key. */
export async function authenticateKey(db: Sql, key: string | null): Promise<AuthenticatedKey> {
  if (!key) throw new ApiError(401, MISSING_KEY);
  // A string without our prefix (or absurdly long) cannot be a key: no database round trip for it.
  if (keyTypeOf(key) === null || key.length > 200) throw new ApiError(401, 'Invalid API key');
  const hash = hashKey(key);
  const { rows } = await db.query<KeyRow>(
    `select id, account_id, type, scopes, secret_hash,
            revoked_at is not null as revoked, coalesce(expires_at <= now(), false) as expired
     from api_keys where secret_hash = $1`,
    [hash],
  );
  const row = rows[0];
  // The index finds the row by hash; the constant-time comparison keeps the final check free of timing signal.
  if (!row || !hexDigestsEqual(row.secret_hash, hash)) throw new ApiError(401, 'Invalid API key');
  if (row.revoked) throw new ApiError(401, 'API key has been revoked');
  if (row.expired) throw new ApiError(401, 'API key has expired');
  touchLastUsed(db, row.id);
  return { id: row.id, accountId: row.account_id as AccountId, type: row.type, scopes: row.scopes };
}

/** Spec, Authentication 6. */
export function requireScopes(key: AuthenticatedKey, required: readonly Scope[]): void {
  const missing = required.filter((scope) => !key.scopes.includes(scope));
  if (missing.length > 0) throw new ApiError(403, `API key is missing required scope(s): ${missing.join(', ')}`);
}

// last_used_at is for people ("used 3 minutes ago"), so minute precision is enough: each process writes it at
// most once a minute per key, off the request path, instead of turning every read into a write.
const TOUCH_INTERVAL_MS = 60_000;
const lastTouched = new Map<string, number>();

function touchLastUsed(db: Sql, keyId: string): void {
  const now = Date.now();
  if (now - (lastTouched.get(keyId) ?? 0) < TOUCH_INTERVAL_MS) return;
  lastTouched.set(keyId, now);
  if (lastTouched.size > 10_000) lastTouched.clear();
  db.query(
    `update api_keys set last_used_at = now()
     where id = $1 and (last_used_at is null or last_used_at < now() - interval '1 minute')`,
    [keyId],
  ).catch((error) => console.error('[api-keys] last_used_at update failed:', (error as Error).message));
}
