// The local provider's private iCalendar feed: a host subscribes to `${APP_URL}/calendar/<token>.ics` and sees the
// events the service created for their bookings, with the same UIDs as the invite emails (one UID per booking).
import { hexDigestsEqual, randomToken, sha256Hex } from '../auth/tokens';
import type { Sql } from '../db/client';
import { bookingUid, calendar, type IcsEvent } from '../email/ical';
import { appUrl } from './config';
import { setFeedTokenHash } from './mutations';
import { getAccountByFeedHash, listFeedEvents } from './queries';

// randomToken(32): 256 bits, 43 base64url characters.
const TOKEN_RE = /^[A-Za-z0-9_-]{43}$/;
// Older events drop out of the feed (and so out of subscribed calendars) to keep it small.
export const FEED_PAST_DAYS = 180;
export const FEED_MAX_EVENTS = 5000;

export function feedUrl(token: string): string {
  return `${appUrl()}/calendar/${token}.ics`;
}

/** Creates or rotates the host's feed token: only its SHA-256 is stored, so the old URL stops working at once. */
export async function rotateFeedToken(db: Sql, accountId: string): Promise<{ token: string; url: string }> {
  const token = randomToken(32);
  if (!(await setFeedTokenHash(db, accountId, sha256Hex(token)))) throw new Error(`no account ${accountId}`);
  return { token, url: feedUrl(token) };
}

/** The token in the route's last path segment ("<token>.ics"); null when it cannot be one. */
export function tokenFromPath(segment: string): string | null {
  const token = segment.endsWith('.ics') ? segment.slice(0, -4) : segment;
  return TOKEN_RE.test(token) ? token : null;
}

/** The feed of the host owning the token, as text/calendar; null for an unknown token (the route answers 404). */
export async function renderFeed(db: Sql, segment: string, now = new Date()): Promise<string | null> {
  const token = tokenFromPath(segment);
  if (!token) return null;
  const hash = sha256Hex(token);
  const account = await getAccountByFeedHash(db, hash);
  if (!account || !hexDigestsEqual(account.feed_hash, hash)) return null;
  const since = new Date(now.getTime() - FEED_PAST_DAYS * 86_400_000);
  const rows = await listFeedEvents(db, account.id, since, FEED_MAX_EVENTS);
  const events: IcsEvent[] = rows.map((row) => ({
    uid: bookingUid(row.booking_id),
    sequence: row.sequence,
    start: new Date(row.start_time),
    end: new Date(row.end_time),
    // The invite emails' wording (lib/email/messages.ts), so both show the same event.
    summary: `${row.page_title}: ${account.name} and ${row.guest_name}`,
    description: row.meet_link ? `Join: ${row.meet_link}` : row.page_title,
    location: row.meet_link,
    organizer: { name: account.name, email: account.email },
    attendee: { name: row.guest_name, email: row.guest_email },
    status: row.cancelled ? 'CANCELLED' : row.status === 'pending' ? 'TENTATIVE' : 'CONFIRMED',
    stamp: new Date(row.stamp),
  }));
  return calendar(events, undefined, `Bookings (${account.username})`);
}
