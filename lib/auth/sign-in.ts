import type { Db } from '../db/client';
import { limiterFor } from '../rate-limit/limiter';
import { hashPassword, verifyPassword } from './password';

// Verified against when the email is unknown, so both cases cost one scrypt and take the same time.
let dummyHash: Promise<string> | undefined;

export type SignInResult = { ok: true; accountId: string } | { ok: false; error: string };

// 10 attempts per address per 15 minutes: enough for typos, far too few for guessing.
const ATTEMPTS = 10;
const WINDOW_SECONDS = 900;

export async function signIn(db: Db, email: string, password: string): Promise<SignInResult> {
  const normalized = email.trim().toLowerCase();
  const limit = await limiterFor(db).hit(`sign-in:${normalized}`, ATTEMPTS, WINDOW_SECONDS);
  if (!limit.success) return { ok: false, error: 'Too many attempts. Try again in a few minutes.' };
  const { rows } = await db.query<{ id: string; password_hash: string | null }>(
    'select id, password_hash from accounts where lower(email) = $1',
    [normalized],
  );
  const account = rows[0];
  dummyHash ??= hashPassword('not a password of anyone');
  const ok = await verifyPassword(password, account?.password_hash ?? (await dummyHash));
  if (!account?.password_hash || !ok) return { ok: false, error: 'Wrong email or password.' };
  return { ok: true, accountId: account.id };
}
