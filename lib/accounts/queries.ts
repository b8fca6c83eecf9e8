import type { Sql } from '../db/client';
import { USERNAME_PATTERN } from './schema';

export type PublicProfile = {
  id: string;
  username: string;
  full_name: string | null;
  bio: string | null;
  avatar_url: string | null;
  timezone: string;
};

const PROFILE_COLUMNS = 'id, username, full_name, bio, avatar_url, timezone';

export async function getProfileByUsername(db: Sql, username: string): Promise<PublicProfile | null> {
  // A name no account can have is not looked up (and text Postgres refuses, such as NUL, never reaches it).
  if (!USERNAME_PATTERN.test(username)) return null;
  const { rows } = await db.query<PublicProfile>(`select ${PROFILE_COLUMNS} from accounts where username = $1`, [
    username,
  ]);
  return rows[0] ?? null;
}

export async function getProfileById(db: Sql, id: string): Promise<PublicProfile | null> {
  const { rows } = await db.query<PublicProfile>(`select ${PROFILE_COLUMNS} from accounts where id = $1`, [id]);
  return rows[0] ?? null;
}
