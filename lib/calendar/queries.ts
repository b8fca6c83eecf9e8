import type { Sql } from '../db/client';

export type ConnectionRow = {
  id: string;
  account_id: string;
  provider: 'google' | 'ical';
  calendar_id: string | null;
  feed_url: string | null;
  access_token_enc: string | null;
  refresh_token_enc: string | null;
  token_expires_at: Date | null;
  last_synced_at: Date | null;
  sync_error: string | null;
  created_at: Date;
};

const CONNECTION_COLUMNS = `id, account_id, provider, calendar_id, feed_url, access_token_enc, refresh_token_enc,
  token_expires_at, last_synced_at, sync_error, created_at`;

export async function getConnection(db: Sql, id: string): Promise<ConnectionRow | null> {
  const { rows } = await db.query<ConnectionRow>(
    `select ${CONNECTION_COLUMNS} from calendar_connections where id = $1`,
    [id],
  );
  return rows[0] ?? null;
}

/** A host's Google connection (at most one per host: calendar_connections_google_key). */
export async function getGoogleConnection(db: Sql, accountId: string): Promise<ConnectionRow | null> {
  const { rows } = await db.query<ConnectionRow>(
    `select ${CONNECTION_COLUMNS} from calendar_connections where account_id = $1 and provider = 'google'`,
    [accountId],
  );
  return rows[0] ?? null;
}

/** Connections of one host, or of every host; `staleBefore` keeps those not synced successfully since then. */
export async function listConnections(
  db: Sql,
  filter: { accountId?: string; staleBefore?: Date } = {},
): Promise<ConnectionRow[]> {
  const { rows } = await db.query<ConnectionRow>(
    `select ${CONNECTION_COLUMNS} from calendar_connections
     where ($1::uuid is null or account_id = $1)
       and ($2::timestamptz is null or last_synced_at is null or last_synced_at < $2)
     order by created_at, id`,
    [filter.accountId ?? null, filter.staleBefore ?? null],
  );
  return rows;
}

/** The calendar a Google event of the service was written to (recorded at creation). */
export async function getGoogleEventCalendar(db: Sql, accountId: string, eventId: string): Promise<string | null> {
  const { rows } = await db.query<{ calendar_id: string | null }>(
    `select calendar_id from calendar_events
     where account_id = $1 and provider = 'google' and kind = 'booking' and external_id = $2`,
    [accountId, eventId],
  );
  return rows[0]?.calendar_id ?? null;
}

export type FeedAccount = { id: string; username: string; name: string; email: string; feed_hash: string };

/** The host whose feed token hashes to `hash` (an indexed equality look-up on a unique column). */
export async function getAccountByFeedHash(db: Sql, hash: string): Promise<FeedAccount | null> {
  const { rows } = await db.query<FeedAccount>(
    `select id, username, coalesce(full_name, username) as name, email, calendar_feed_token_hash as feed_hash
     from accounts where calendar_feed_token_hash = $1`,
    [hash],
  );
  return rows[0] ?? null;
}

export type FeedEventRow = {
  booking_id: string;
  start_time: Date;
  end_time: Date;
  meet_link: string | null;
  cancelled: boolean;
  sequence: number;
  stamp: Date;
  status: string;
  guest_name: string;
  guest_email: string;
  page_title: string;
};

/**
 * A host's local booking events that end after `since`, one per booking (a booking confirmed again after a
 * cancellation has a newer event: the live one wins), in start order. The sequence is the highest of the event's
 * and the booking's invites, so the feed never goes back behind an email the host already applied.
 */
export async function listFeedEvents(db: Sql, accountId: string, since: Date, limit: number): Promise<FeedEventRow[]> {
  const { rows } = await db.query<FeedEventRow>(
    `select * from (
       select distinct on (e.booking_id) e.booking_id, e.start_time, e.end_time, e.meet_link,
         (e.cancelled_at is not null or b.status = 'cancelled') as cancelled,
         greatest(e.sequence, b.ical_sequence) as sequence, greatest(e.updated_at, b.updated_at) as stamp,
         b.status, b.guest_name, b.guest_email, p.title as page_title
       from calendar_events e
       join bookings b on b.id = e.booking_id
       join booking_pages p on p.id = b.booking_page_id
       where e.account_id = $1 and e.kind = 'booking' and e.provider = 'local' and e.end_time > $2
       order by e.booking_id, (e.cancelled_at is null) desc, e.created_at desc
     ) latest
     order by start_time, booking_id
     limit $3`,
    [accountId, since, limit],
  );
  return rows;
}
