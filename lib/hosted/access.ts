// Who may open a hosted page (spec: BookingPage `visibility`). Private pages open with their access code; the
// proof is a cookie derived from the stored code hash, so no server secret is needed and changing the code (a new
// salted hash) locks out every earlier visitor.
import { createHash, timingSafeEqual } from 'node:crypto';
import { verifyPassword } from '../auth/password';
import type { Sql } from '../db/client';
import { limiterFor } from '../rate-limit/limiter';
import type { HostedPage } from './page';

export const ACCESS_COOKIE = 'page_access';

export type PageAccess = 'open' | 'needs-code' | 'team-only';

export function accessToken(page: Pick<HostedPage, 'id' | 'access_code_hash'>): string {
  return createHash('sha256')
    .update(`${page.id}${page.access_code_hash ?? ''}`)
    .digest('base64url');
}

/** `cookie` is the value of ACCESS_COOKIE sent on the page's path, if any. */
export function pageAccess(
  page: Pick<HostedPage, 'id' | 'visibility' | 'access_code_hash'>,
  cookie: string | undefined,
): PageAccess {
  if (page.visibility === 'public') return 'open';
  // Team pages need a signed-in member; there is no guest sign-in, so they never open here.
  if (page.visibility === 'team') return 'team-only';
  if (!page.access_code_hash || cookie === undefined) return 'needs-code';
  const expected = Buffer.from(accessToken(page));
  const presented = Buffer.from(cookie);
  return presented.length === expected.length && timingSafeEqual(presented, expected) ? 'open' : 'needs-code';
}

export async function isAccessCode(page: Pick<HostedPage, 'access_code_hash'>, code: string): Promise<boolean> {
  if (code === '' || code.length > 200) return false;
  return verifyPassword(code, page.access_code_hash);
}

export const TEAM_ONLY_MESSAGE = 'This page is for members of a team; sign in to the dashboard to continue.';
export const WRONG_CODE_MESSAGE = 'That access code is not correct.';

// Attempts per page and client address in ACCESS_WINDOW_SECONDS: enough for typos, too few to guess a code, on top
// of scrypt's cost per attempt.
const ACCESS_ATTEMPTS = 10;
const ACCESS_WINDOW_SECONDS = 600;

export const TOO_MANY_ATTEMPTS_MESSAGE = 'Too many attempts. Please wait a few minutes and try again.';

export async function allowAccessAttempt(db: Sql, pageId: string, client: string): Promise<boolean> {
  const result = await limiterFor(db).hit(`access:${pageId}:${client}`, ACCESS_ATTEMPTS, ACCESS_WINDOW_SECONDS);
  return result.success;
}
