import type { Db, Sql } from '../db/client';
import type { Interval } from '../slots/slots';
import type { BusyEventInput } from './schema';

export async function addBusyEvent(
  tx: Sql,
  accountId: string,
  event: BusyEventInput,
  source: { provider: 'local' | 'google' | 'ical'; externalId?: string } = { provider: 'local' },
): Promise<{ id: string }> {
  const { rows } = await tx.query<{ id: string }>(
    `insert into calendar_events (account_id, kind, provider, external_id, title, start_time, end_time)
     values ($1, 'busy', $2, $3, $4, $5, $6) returning id`,
    [accountId, source.provider, source.externalId ?? null, event.title, event.start, event.end],
  );
  return rows[0] as { id: string };
}

/** Runs fn in a transaction of its own on a database, or directly on a handle that already is one. */
function inTransaction<T>(sql: Sql, fn: (tx: Sql) => Promise<T>): Promise<T> {
  const db = sql as Partial<Db>;
  return typeof db.transaction === 'function' ? db.transaction(fn) : fn(sql);
}

export type GoogleTokensEnc = { accessTokenEnc: string; refreshTokenEnc: string; expiresAt: Date };

/** Creates or replaces the host's Google connection (one per host); keeps its id, so its busy rows stay linked. */
export async function upsertGoogleConnection(
  db: Sql,
  accountId: string,
  calendarId: string,
  tokens: GoogleTokensEnc,
): Promise<{ id: string }> {
  const { rows } = await db.query<{ id: string }>(
    `insert into calendar_connections (account_id, provider, calendar_id, access_token_enc, refresh_token_enc,
       token_expires_at)
     values ($1, 'google', $2, $3, $4, $5)
     on conflict (account_id) where provider = 'google' do update set calendar_id = excluded.calendar_id,
       access_token_enc = excluded.access_token_enc, refresh_token_enc = excluded.refresh_token_enc,
       token_expires_at = excluded.token_expires_at, sync_error = null
     returning id`,
    [accountId, calendarId, tokens.accessTokenEnc, tokens.refreshTokenEnc, tokens.expiresAt],
  );
  return rows[0] as { id: string };
}

/** Stores a refreshed access token (and a rotated refresh token, when Google sent one). */
export async function storeAccessToken(
  db: Sql,
  connectionId: string,
  tokens: { accessTokenEnc: string; expiresAt: Date; refreshTokenEnc: string | null },
): Promise<void> {
  await db.query(
    `update calendar_connections set access_token_enc = $2, token_expires_at = $3,
       refresh_token_enc = coalesce($4, refresh_token_enc)
     where id = $1`,
    [connectionId, tokens.accessTokenEnc, tokens.expiresAt, tokens.refreshTokenEnc],
  );
}

/** Adds an iCalendar feed to import busy time from; adding the same URL twice returns the existing connection. */
export async function addIcalConnection(
  db: Sql,
  accountId: string,
  feedUrl: string,
): Promise<{ id: string; created: boolean }> {
  const inserted = await db.query<{ id: string }>(
    `insert into calendar_connections (account_id, provider, feed_url) values ($1, 'ical', $2)
     on conflict (account_id, feed_url) where provider = 'ical' do nothing returning id`,
    [accountId, feedUrl],
  );
  if (inserted.rows[0]) return { id: inserted.rows[0].id, created: true };
  const { rows } = await db.query<{ id: string }>(
    `select id from calendar_connections where account_id = $1 and provider = 'ical' and feed_url = $2`,
    [accountId, feedUrl],
  );
  return { id: (rows[0] as { id: string }).id, created: false };
}

/** Removes a connection; its busy rows go with it (foreign key cascade). */
export async function removeConnection(db: Sql, connectionId: string): Promise<boolean> {
  const { rowCount } = await db.query('delete from calendar_connections where id = $1', [connectionId]);
  return rowCount > 0;
}

/**
 * Replaces a connection's busy rows with a fresh sync result in one transaction, so slots never see half of a sync.
 * The connection row is locked first: two syncs of one connection at once run one after the other, and the second
 * deletes what the first inserted instead of adding to it.
 */
export async function replaceBusy(
  sql: Sql,
  connection: { id: string; account_id: string; provider: 'google' | 'ical' },
  busy: readonly Interval[],
): Promise<void> {
  await inTransaction(sql, async (tx) => {
    const locked = await tx.query('select id from calendar_connections where id = $1 for update', [connection.id]);
    if (locked.rows.length === 0) throw new Error('the connection was removed during the sync');
    await tx.query(`delete from calendar_events where connection_id = $1 and kind = 'busy'`, [connection.id]);
    if (busy.length > 0) {
      await tx.query(
        `insert into calendar_events (account_id, kind, provider, connection_id, start_time, end_time)
         select $1, 'busy', $2, $3, s, e from unnest($4::timestamptz[], $5::timestamptz[]) as t(s, e)`,
        [
          connection.account_id,
          connection.provider,
          connection.id,
          busy.map((interval) => interval.start.toISOString()),
          busy.map((interval) => interval.end.toISOString()),
        ],
      );
    }
    await tx.query('update calendar_connections set last_synced_at = now(), sync_error = null where id = $1', [
      connection.id,
    ]);
  });
}

/** A failed sync: the reason is kept, the previous busy rows and last_synced_at stay as they were. */
export async function recordSyncError(db: Sql, connectionId: string, message: string): Promise<void> {
  await db.query('update calendar_connections set sync_error = $2 where id = $1', [
    connectionId,
    message.slice(0, 1000),
  ]);
}

/** A Google event the service created for a booking, recorded so that cancelling finds its calendar. */
export async function recordGoogleEvent(
  db: Sql,
  event: {
    accountId: string;
    connectionId: string;
    bookingId: string;
    eventId: string;
    calendarId: string;
    title: string;
    start: Date;
    end: Date;
    meetLink: string | null;
  },
): Promise<void> {
  await db.query(
    `insert into calendar_events (account_id, kind, provider, connection_id, booking_id, external_id, calendar_id,
       title, start_time, end_time, meet_link)
     values ($1, 'booking', 'google', $2, $3, $4, $5, $6, $7, $8, $9)
     on conflict (account_id, provider, external_id) where external_id is not null do update
       set cancelled_at = null, sequence = calendar_events.sequence + 1`,
    [
      event.accountId,
      event.connectionId,
      event.bookingId,
      event.eventId,
      event.calendarId,
      event.title.slice(0, 1000),
      event.start,
      event.end,
      event.meetLink,
    ],
  );
}

export async function markGoogleEventCancelled(db: Sql, accountId: string, eventId: string): Promise<void> {
  await db.query(
    `update calendar_events set cancelled_at = now(), sequence = sequence + 1
     where account_id = $1 and provider = 'google' and kind = 'booking' and external_id = $2 and cancelled_at is null`,
    [accountId, eventId],
  );
}

/** Sets (or replaces) the hash of the host's feed token; false when there is no such account. */
export async function setFeedTokenHash(db: Sql, accountId: string, hash: string): Promise<boolean> {
  const { rowCount } = await db.query('update accounts set calendar_feed_token_hash = $2 where id = $1', [
    accountId,
    hash,
  ]);
  return rowCount > 0;
}
