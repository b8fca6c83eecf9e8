import { hashPassword } from '../auth/password';
import type { Sql } from '../db/client';
import type { AccountInput } from './schema';

export async function createAccount(tx: Sql, input: AccountInput & { id?: string }): Promise<{ id: string }> {
  const passwordHash = input.password ? await hashPassword(input.password) : null;
  const { rows } = await tx.query<{ id: string }>(
    `insert into accounts (id, email, password_hash, username, full_name, bio, avatar_url, timezone)
     values (coalesce($1::uuid, gen_random_uuid()), $2, $3, $4, $5, $6, $7, $8)
     returning id`,
    [
      input.id ?? null,
      input.email,
      passwordHash,
      input.username,
      input.full_name,
      input.bio,
      input.avatar_url,
      input.timezone,
    ],
  );
  return rows[0] as { id: string };
}
