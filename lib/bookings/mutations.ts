import type { Sql } from '../db/client';
import { BOOKING_COLUMNS, type BookingRecord } from './queries';
import type { BookingStatus } from './schema';

export type NewBooking = {
  pageId: string;
  hostId: string;
  guestName: string;
  guestEmail: string;
  guestTimezone: string | null;
  start: Date;
  end: Date;
  status: 'pending' | 'confirmed';
  responses: { questionId: string; answer: string }[];
};

// The first key of the two-key advisory locks that serialise booking writes per host (migrations use another).
const HOST_BOOKINGS_LOCK = 727_400_002;

/**
 * Serialises, until the transaction ends, the writes that can make one host's bookings overlap. Without it two
 * concurrent inserts whose times overlap can each wait for the other inside the exclusion constraint's check and
 * Postgres aborts one with a deadlock (40P01) instead of the 23P01 that becomes the spec's 409. Every such write
 * takes this lock first, before any row lock, so the lock order is the same everywhere.
 */
export async function lockHostBookings(tx: Sql, hostId: string): Promise<void> {
  await tx.query('select pg_advisory_xact_lock($1, hashtext($2))', [HOST_BOOKINGS_LOCK, hostId]);
}

/**
 * Inserts a booking and its answers (inside the caller's transaction). The exclusion constraint rejects an
 * overlap with SQLSTATE 23P01; the answers' composite foreign key rejects a question of another page (23503).
 */
export async function insertBooking(tx: Sql, booking: NewBooking): Promise<BookingRecord> {
  await lockHostBookings(tx, booking.hostId);
  const { rows } = await tx.query<BookingRecord>(
    `insert into bookings (booking_page_id, user_id, guest_name, guest_email, guest_timezone, start_time, end_time, status)
     values ($1, $2, $3, $4, $5, $6, $7, $8) returning ${BOOKING_COLUMNS}`,
    [
      booking.pageId,
      booking.hostId,
      booking.guestName,
      booking.guestEmail,
      booking.guestTimezone,
      booking.start,
      booking.end,
      booking.status,
    ],
  );
  const row = rows[0] as BookingRecord;
  if (booking.responses.length > 0) {
    await tx.query(
      `insert into meeting_responses (booking_id, booking_page_id, question_id, answer)
       select $1, $2, * from unnest($3::uuid[], $4::text[])`,
      [row.id, booking.pageId, booking.responses.map((r) => r.questionId), booking.responses.map((r) => r.answer)],
    );
  }
  return row;
}

/**
 * Sets status and reason of an account's booking (inside the caller's transaction); null when there is no such
 * booking on the account.
 */
export async function setBookingStatus(
  tx: Sql,
  accountId: string,
  id: string,
  status: BookingStatus,
  reason: string | null,
): Promise<BookingRecord | null> {
  await lockHostBookings(tx, accountId);
  const { rows } = await tx.query<BookingRecord>(
    `update bookings set status = $3, cancellation_reason = $4, ical_sequence = ical_sequence + 1
     where id = $1 and user_id = $2 returning ${BOOKING_COLUMNS}`,
    [id, accountId, status, reason],
  );
  return rows[0] ?? null;
}

/** A booking whose calendar event could not be created: logged, and its sync fields say so (no event, `failed`). */
export async function recordEventFailure(db: Sql, bookingId: string, error: unknown): Promise<BookingRecord> {
  console.error(`[calendar] event for booking ${bookingId} failed:`, (error as Error).message);
  return setBookingEvent(
    db,
    bookingId,
    { eventId: null, calendarId: null, meetLink: null },
    { status: 'failed', failureReason: 'The calendar provider could not create the event' },
  );
}

export type EventFields = { eventId: string | null; calendarId: string | null; meetLink: string | null };

/**
 * Records the external event of a booking. `sync` is given only when the guest booked or the host acted in the
 * dashboard: the spec keeps sync_status as it was for API confirmations and cancellations.
 */
export async function setBookingEvent(
  db: Sql,
  id: string,
  event: EventFields,
  sync?: { status: 'synced' | 'failed' | 'not_synced'; failureReason: string | null },
): Promise<BookingRecord> {
  const { rows } = await db.query<BookingRecord>(
    `update bookings set ext_calendar_event_id = $2, ext_calendar_id = $3, ext_meet_link = $4,
       sync_status = coalesce($5, sync_status),
       last_synced_at = case when $5::text is null then last_synced_at else now() end,
       sync_failure_reason = case when $5::text is null then sync_failure_reason else $6 end
     where id = $1 returning ${BOOKING_COLUMNS}`,
    [id, event.eventId, event.calendarId, event.meetLink, sync?.status ?? null, sync?.failureReason ?? null],
  );
  return rows[0] as BookingRecord;
}
