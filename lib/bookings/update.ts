import type { AccountId } from '../api-keys/auth';
import { getPageEventFields } from '../booking-pages/queries';
import { type CalendarProvider, providerFor } from '../calendar/provider';
import type { Db, Sql } from '../db/client';
import { calendarEmail } from '../email/messages';
import { enqueueEmails } from '../email/outbox';
import { ApiError, sqlState, UUID_PATTERN } from '../http/errors';
import { attachEvent, SLOT_TAKEN } from './create';
import { setBookingEvent, setBookingStatus } from './mutations';
import { type BookingRecord, getBookingFacts } from './queries';

/**
 * updateBooking / cancelBooking through the API (spec: States and transitions). No status check; confirming
 * creates the event when the page wants meeting links and the booking has none; cancelling deletes it. The sync
 * fields stay as they were: the spec reserves them for guest and dashboard actions. With the local provider the
 * status change, the event and the guest's calendar email are one transaction; a remote provider is called after
 * commit (a retry of the same request finishes the job, since the event fields show what is left to do).
 */
export async function changeBookingStatus(
  db: Db,
  accountId: AccountId,
  id: string,
  status: 'confirmed' | 'cancelled',
  reason: string | null,
): Promise<BookingRecord> {
  if (!UUID_PATTERN.test(id)) throw new ApiError(404, 'Booking not found');
  const provider = await providerFor(db, accountId);
  const local = provider.name === 'local';
  let booking: BookingRecord;
  try {
    booking = await db.transaction(async (tx) => {
      const changed = await setBookingStatus(tx, accountId, id, status, reason);
      if (!changed) throw new ApiError(404, 'Booking not found');
      return local ? applyCalendarChange(tx, provider, changed, status) : changed;
    });
  } catch (error) {
    // Re-confirming a cancelled booking whose time another booking has taken since.
    if (sqlState(error) === '23P01') throw new ApiError(409, SLOT_TAKEN);
    throw error;
  }
  return local ? booking : applyCalendarChange(db, provider, booking, status);
}

/** Brings the external event in line with the booking's new status. */
async function applyCalendarChange(
  sql: Sql,
  provider: CalendarProvider,
  booking: BookingRecord,
  status: 'confirmed' | 'cancelled',
): Promise<BookingRecord> {
  if (status === 'cancelled' && booking.ext_calendar_event_id) {
    // The local calendar notifies the guest itself; the email must carry the event as it was (with its link).
    const facts = provider.name === 'local' ? await getBookingFacts(sql, booking.id) : null;
    await provider.deleteEvent(sql, booking.user_id, booking.ext_calendar_event_id);
    if (facts) await enqueueEmails(sql, booking.id, [calendarEmail('cancel', facts)]);
    return setBookingEvent(sql, booking.id, { eventId: null, calendarId: null, meetLink: null });
  }
  if (status === 'confirmed' && !booking.ext_calendar_event_id) {
    const page = await getPageEventFields(sql, booking.booking_page_id);
    if (!page?.auto_generate_meet_link) return booking;
    const updated = await attachEvent(sql, provider, page, booking, false);
    if (provider.name === 'local') {
      await enqueueEmails(sql, booking.id, [calendarEmail('invite', await getBookingFacts(sql, booking.id))]);
    }
    return updated;
  }
  return booking;
}
