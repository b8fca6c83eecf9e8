import type { AccountId } from '../api-keys/auth';
import type { Sql } from '../db/client';
import type { BookingFacts } from '../email/messages';
import { nullableRowTimestamp, rowTimestamp } from '../http/format';
import type { BookingStatus } from './schema';

// Spec: Booking fields, in the spec's order. guest_timezone is internal (emails) and not part of the API row.
export const BOOKING_COLUMNS = `id, booking_page_id, user_id, guest_name, guest_email, start_time, end_time, status,
  cancellation_reason, reminder_sent, ext_meet_link, ext_calendar_event_id, ext_calendar_id, sync_status,
  last_synced_at, sync_failure_reason, created_at, updated_at`;

export type BookingRecord = {
  id: string;
  booking_page_id: string;
  user_id: string;
  guest_name: string;
  guest_email: string;
  start_time: Date;
  end_time: Date;
  status: BookingStatus;
  cancellation_reason: string | null;
  reminder_sent: boolean | null;
  ext_meet_link: string | null;
  ext_calendar_event_id: string | null;
  ext_calendar_id: string | null;
  sync_status: 'not_synced' | 'pending' | 'synced' | 'failed';
  last_synced_at: Date | null;
  sync_failure_reason: string | null;
  created_at: Date;
  updated_at: Date;
};

/** The API's Booking object: the row with the spec's timestamp format. */
export type Booking = Omit<
  BookingRecord,
  'start_time' | 'end_time' | 'last_synced_at' | 'created_at' | 'updated_at'
> & {
  start_time: string;
  end_time: string;
  last_synced_at: string | null;
  created_at: string;
  updated_at: string;
};

export function toBooking(row: BookingRecord): Booking {
  return {
    ...row,
    start_time: rowTimestamp(row.start_time),
    end_time: rowTimestamp(row.end_time),
    last_synced_at: nullableRowTimestamp(row.last_synced_at),
    created_at: rowTimestamp(row.created_at),
    updated_at: rowTimestamp(row.updated_at),
  };
}

// A row timestamp as the spec writes it (`2026-01-07T10:00:00.000+00:00`), formatted by the database. to_char's
// MS truncates to milliseconds like the driver's Date does, so this equals rowTimestamp() of the same value.
const sqlRowTimestamp = (column: string) =>
  `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"+00:00"')`;

// The spec's Booking object built in SQL from a row `b`: row_to_json keeps the columns' order (the spec's) and
// writes no whitespace, so the text is JSON.stringify(toBooking(row)) of the same row, byte for byte.
const BOOKING_JSON = `select row_to_json(r)::text from (select b.id, b.booking_page_id, b.user_id, b.guest_name,
  b.guest_email, ${sqlRowTimestamp('b.start_time')} as start_time, ${sqlRowTimestamp('b.end_time')} as end_time,
  b.status, b.cancellation_reason, b.reminder_sent, b.ext_meet_link, b.ext_calendar_event_id, b.ext_calendar_id,
  b.sync_status, ${sqlRowTimestamp('b.last_synced_at')} as last_synced_at, b.sync_failure_reason,
  ${sqlRowTimestamp('b.created_at')} as created_at, ${sqlRowTimestamp('b.updated_at')} as updated_at) r`;

/**
 * listBookings (spec: GET /bookings), latest start_time first, as the JSON text of the Booking array. The database
 * builds the JSON: with 200 rows, rebuilding Dates and formatting 1,000 timestamps in JavaScript was most of the
 * request's CPU time (README: Benchmarks).
 */
export async function listBookingsJson(
  db: Sql,
  accountId: AccountId,
  filter: { status: BookingStatus | null; limit: number },
): Promise<string> {
  const { rows } = await db.query<{ data: string }>(
    `select '[' || coalesce(string_agg((${BOOKING_JSON}), ',' order by b.start_time desc, b.id desc), '') || ']' as data
     from (select * from bookings
           where user_id = $1 and ($2::text is null or status = $2)
           order by start_time desc, id desc limit $3) b`,
    [accountId, filter.status, filter.limit],
  );
  return rows[0]?.data ?? '[]';
}

/** A booking of the account, or null (unknown id and another account's id look the same). */
export async function getBookingRecord(db: Sql, accountId: AccountId, id: string): Promise<BookingRecord | null> {
  const { rows } = await db.query<BookingRecord>(
    `select ${BOOKING_COLUMNS} from bookings where id = $1 and user_id = $2`,
    [id, accountId],
  );
  return rows[0] ?? null;
}

export type MeetingResponse = { question_id: string; answer: string };

/** Answers in the page's question order. */
export async function listMeetingResponses(db: Sql, bookingId: string): Promise<MeetingResponse[]> {
  const { rows } = await db.query<MeetingResponse>(
    `select r.question_id, r.answer from meeting_responses r join questions q on q.id = r.question_id
     where r.booking_id = $1 order by q.order_index`,
    [bookingId],
  );
  return rows;
}

/** What the emails and invites of a booking say: the booking with its page and host, and the invite sequence. */
export async function getBookingFacts(db: Sql, bookingId: string): Promise<BookingFacts> {
  const { rows } = await db.query<{
    title: string;
    host_name: string;
    host_email: string;
    host_timezone: string;
    guest_name: string;
    guest_email: string;
    guest_timezone: string | null;
    start_time: Date;
    end_time: Date;
    ext_meet_link: string | null;
    ical_sequence: number;
    cancellation_reason: string | null;
  }>(
    `select p.title, coalesce(a.full_name, a.username) as host_name, a.email as host_email, a.timezone as host_timezone,
       b.guest_name, b.guest_email, b.guest_timezone, b.start_time, b.end_time, b.ext_meet_link, b.ical_sequence,
       b.cancellation_reason
     from bookings b join booking_pages p on p.id = b.booking_page_id join accounts a on a.id = b.user_id
     where b.id = $1`,
    [bookingId],
  );
  const row = rows[0];
  if (!row) throw new Error(`booking ${bookingId} not found`);
  return {
    bookingId,
    sequence: row.ical_sequence,
    pageTitle: row.title,
    hostName: row.host_name,
    hostEmail: row.host_email,
    hostTimezone: row.host_timezone,
    guestName: row.guest_name,
    guestEmail: row.guest_email,
    guestTimezone: row.guest_timezone,
    start: new Date(row.start_time),
    end: new Date(row.end_time),
    meetLink: row.ext_meet_link,
    reason: row.cancellation_reason,
  };
}
