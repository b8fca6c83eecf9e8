import type { Db, Sql } from '../db/client';
import { DEFAULT_SCOPES, generateKey } from './keys';
import type { ApiKeyInput } from './schema';

/** Creates a key and returns its secret: the only time it exists outside the caller's hands is this return value. */
export async function createApiKey(
  tx: Sql,
  accountId: string,
  input: ApiKeyInput,
): Promise<{ id: string; key: string }> {
  const { key, hash, prefix } = generateKey(input.type);
  const { rows } = await tx.query<{ id: string }>(
    `insert into api_keys (account_id, name, type, scopes, secret_hash, prefix, expires_at, revoked_at)
     values ($1, $2, $3, $4, $5, $6, $7, case when $8::boolean then now() end)
     returning id`,
    [
      accountId,
      input.name,
      input.type,
      input.scopes ?? DEFAULT_SCOPES[input.type],
      hash,
      prefix,
      input.expires_at ?? null,
      input.revoked,
    ],
  );
  return { id: (rows[0] as { id: string }).id, key };
}

// Spec, Authentication 2: each account can create five keys an hour.
export const KEYS_PER_HOUR = 5;

export class KeyLimitError extends Error {}

/** The dashboard's key creation: at most KEYS_PER_HOUR per account per rolling hour, counted under a row lock. */
export async function createApiKeyLimited(
  db: Db,
  accountId: string,
  input: ApiKeyInput,
): Promise<{ id: string; key: string }> {
  return db.transaction(async (tx) => {
    // Serialises concurrent creations of one account, so two requests cannot both take the fifth place.
    await tx.query('select id from accounts where id = $1 for update', [accountId]);
    const { rows } = await tx.query<{ n: number }>(
      `select count(*)::int as n from api_keys where account_id = $1 and created_at > now() - interval '1 hour'`,
      [accountId],
    );
    if ((rows[0]?.n ?? 0) >= KEYS_PER_HOUR) {
      throw new KeyLimitError(`You can create ${KEYS_PER_HOUR} keys an hour. Try again later.`);
    }
    return createApiKey(tx, accountId, input);
  });
}

export async function revokeApiKey(db: Sql, accountId: string, keyId: string): Promise<boolean> {
  const { rowCount } = await db.query(
    'update api_keys set revoked_at = now() where id = $1 and account_id = $2 and revoked_at is null',
    [keyId, accountId],
  );
  return rowCount > 0;
}
