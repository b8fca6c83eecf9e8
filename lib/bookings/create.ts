import { getPageForBooking, type PageForBooking } from '../booking-pages/queries';
import { type CalendarProvider, providerFor } from '../calendar/provider';
import type { Db, Sql } from '../db/client';
import { newBookingEmails } from '../email/messages';
import { enqueueEmails } from '../email/outbox';
import { ApiError, sqlState, UUID_PATTERN } from '../http/errors';
import { limiterFor } from '../rate-limit/limiter';
import { slotAvailability } from '../slots/service';
import { type EventFields, insertBooking, recordEventFailure, setBookingEvent } from './mutations';
import type { BookingRecord } from './queries';
import type { CreateBookingBody } from './schema';

export const SLOT_NOT_OFFERED = 'This time slot is not available. Fetch the slots again and pick another.';
export const SLOT_TAKEN = 'This time slot is no longer available. Please pick another.';
export const MEETING_FAILED = 'Failed to create meeting';

// Spec, createBooking rule 5: 5 attempts per guest address per clock hour.
const GUEST_LIMIT = 5;
const GUEST_WINDOW_SECONDS = 3600;

export type CreateBookingInput = CreateBookingBody & { guestTimezone?: string | null };

/**
 * Who is booking: the account the request is proven to act for, and whether the time must be a slot listSlots
 * offers right now (publishable keys and the hosted page) or may be any free time (secret keys, spec rule 2).
 */
export type BookingActor = { accountId: string; requireOfferedSlot: boolean };

/**
 * createBooking after the body is validated: guest limit, page checks, slot rule, then one transaction for the
 * booking, its answers, its emails and (local provider) its calendar event.
 */
export async function createBooking(
  db: Db,
  actor: BookingActor,
  input: CreateBookingInput,
  now = new Date(),
): Promise<BookingRecord> {
  const guestLimit = await limiterFor(db).hit(
    `guest:${input.guestEmail.toLowerCase()}`,
    GUEST_LIMIT,
    GUEST_WINDOW_SECONDS,
  );
  if (!guestLimit.success) throw new ApiError(429, 'Too many booking requests. Please try again later.');

  const page = UUID_PATTERN.test(input.bookingPageId) ? await getPageForBooking(db, input.bookingPageId) : null;
  if (!page || (page.user_id === actor.accountId && !page.is_active)) {
    throw new ApiError(400, 'Booking page not found');
  }
  if (page.user_id !== actor.accountId) {
    throw new ApiError(403, 'This booking page does not belong to the API key owner');
  }
  await checkResponses(db, page.id, input.responses);

  if (actor.requireOfferedSlot) {
    const availability = await slotAvailability(db, page, { start: input.start, end: input.end }, now);
    if (availability === 'taken') throw new ApiError(409, SLOT_TAKEN);
    if (availability === 'not_offered') throw new ApiError(409, SLOT_NOT_OFFERED);
  }
  return bookAndNotify(db, page, input, await providerFor(db, page.user_id));
}

/** Spec: one unknown question id and none of the answers are saved; here the whole request fails (README). */
async function checkResponses(db: Sql, pageId: string, responses: CreateBookingInput['responses']) {
  if (responses.length === 0) return;
  const ids = responses.map((response) => response.questionId);
  const unique = new Set(ids);
  const error = new ApiError(400, '`responses` must only answer questions of this booking page, each once');
  if (unique.size !== ids.length || !ids.every((id) => UUID_PATTERN.test(id))) throw error;
  const { rows } = await db.query<{ n: number }>(
    'select count(*)::int as n from questions where booking_page_id = $1 and id = any($2::uuid[])',
    [pageId, ids],
  );
  if (rows[0]?.n !== ids.length) throw error;
}

async function bookAndNotify(
  db: Db,
  page: PageForBooking,
  input: CreateBookingInput,
  provider: CalendarProvider,
): Promise<BookingRecord> {
  const wantsEvent = page.booking_type === 'direct' && page.auto_generate_meet_link === true;
  // The local provider writes to our own database, so its event joins the booking's transaction and the
  // emails can carry the meeting link. A remote provider is called after commit (no network inside a transaction).
  const inline = wantsEvent && provider.name === 'local';
  let booking: BookingRecord;
  try {
    booking = await db.transaction(async (tx) => {
      let row = await insertBooking(tx, {
        pageId: page.id,
        hostId: page.user_id,
        guestName: input.guestName,
        guestEmail: input.guestEmail,
        guestTimezone: input.guestTimezone ?? null,
        start: input.start,
        end: input.end,
        status: page.booking_type === 'direct' ? 'confirmed' : 'pending',
        responses: input.responses,
      });
      if (inline) row = await attachEvent(tx, provider, page, row, true);
      await enqueueEmails(
        tx,
        row.id,
        newBookingEmails(page.booking_type, {
          bookingId: row.id,
          sequence: 0,
          pageTitle: page.title,
          hostName: page.host_name,
          hostEmail: page.host_email,
          hostTimezone: page.host_timezone,
          guestName: row.guest_name,
          guestEmail: row.guest_email,
          guestTimezone: input.guestTimezone ?? null,
          start: row.start_time,
          end: row.end_time,
          meetLink: row.ext_meet_link,
        }),
      );
      return row;
    });
  } catch (error) {
    if (sqlState(error) === '23P01') throw new ApiError(409, SLOT_TAKEN);
    if (sqlState(error) === '23503') {
      throw new ApiError(400, '`responses` must only answer questions of this booking page, each once');
    }
    throw error;
  }
  if (wantsEvent && !inline) {
    try {
      booking = await attachEvent(db, provider, page, booking, true);
    } catch (error) {
      // The booking stays (spec, createBooking rule 7): its sync fields say why it has no event, and a retry of
      // the same slot answers 409.
      await recordEventFailure(db, booking.id, error);
      throw new ApiError(500, MEETING_FAILED);
    }
  }
  return booking;
}

/** Creates the external event and meeting link of a booking and records them (and, if asked, the sync state). */
export async function attachEvent(
  db: Sql,
  provider: CalendarProvider,
  page: Pick<PageForBooking, 'title' | 'user_id'>,
  booking: BookingRecord,
  recordSync: boolean,
): Promise<BookingRecord> {
  const created = await provider.createEvent(db, {
    accountId: page.user_id,
    bookingId: booking.id,
    title: `${page.title}: ${booking.guest_name}`,
    start: booking.start_time,
    end: booking.end_time,
    guest: { name: booking.guest_name, email: booking.guest_email },
    withMeetLink: true,
  });
  const fields: EventFields = { eventId: created.eventId, calendarId: created.calendarId, meetLink: created.meetLink };
  return setBookingEvent(db, booking.id, fields, recordSync ? { status: 'synced', failureReason: null } : undefined);
}
