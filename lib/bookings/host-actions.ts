import { getPageEventFields } from '../booking-pages/queries';
import { providerFor } from '../calendar/provider';
import type { Db, Sql } from '../db/client';
import { hostDecisionEmail } from '../email/messages';
import { enqueueEmails } from '../email/outbox';
import { ApiError, sqlState, UUID_PATTERN } from '../http/errors';
import { attachEvent, SLOT_TAKEN } from './create';
import { lockHostBookings, recordEventFailure, setBookingEvent, setBookingStatus } from './mutations';
import { BOOKING_COLUMNS, type BookingRecord, getBookingFacts } from './queries';

export type HostAction = 'approve' | 'decline' | 'cancel';

// Spec, States and transitions: the dashboard acts on pending or confirmed bookings only.
const ALLOWED: Record<HostAction, readonly string[]> = {
  approve: ['pending'],
  decline: ['pending'],
  cancel: ['pending', 'confirmed'],
};

/**
 * A host's approval, decline or cancellation in the dashboard. Unlike the API, the guest is told by email, and
 * the sync fields record what happened to the calendar event (spec: sync_status is recorded when the host acted
 * in the dashboard). With the local provider everything is one transaction; a remote provider is called after.
 */
export async function hostActOnBooking(
  db: Db,
  accountId: string,
  bookingId: string,
  action: HostAction,
  reason: string | null = null,
): Promise<BookingRecord> {
  if (!UUID_PATTERN.test(bookingId)) throw new ApiError(404, 'Booking not found');
  const provider = await providerFor(db, accountId);
  const local = provider.name === 'local';

  const apply = async (sql: Sql, booking: BookingRecord): Promise<BookingRecord> => {
    if (action === 'approve') {
      const page = await getPageEventFields(sql, booking.booking_page_id);
      if (page?.auto_generate_meet_link && !booking.ext_calendar_event_id) {
        try {
          return await attachEvent(sql, provider, page, booking, true);
        } catch (error) {
          if (local) throw error;
          return recordEventFailure(sql, booking.id, error);
        }
      }
      const fields = {
        eventId: booking.ext_calendar_event_id,
        calendarId: booking.ext_calendar_id,
        meetLink: booking.ext_meet_link,
      };
      const status = booking.ext_calendar_event_id ? 'synced' : 'not_synced';
      return setBookingEvent(sql, booking.id, fields, { status, failureReason: null });
    }
    if (booking.ext_calendar_event_id) await provider.deleteEvent(sql, accountId, booking.ext_calendar_event_id);
    return setBookingEvent(
      sql,
      booking.id,
      { eventId: null, calendarId: null, meetLink: null },
      { status: 'not_synced', failureReason: null },
    );
  };

  const notify = async (sql: Sql, booking: BookingRecord, meetLink: string | null) => {
    const facts = { ...(await getBookingFacts(sql, booking.id)), meetLink };
    const decision = action === 'approve' ? 'approved' : action === 'decline' ? 'declined' : 'cancelled';
    await enqueueEmails(sql, booking.id, [hostDecisionEmail(decision, facts)]);
  };

  let booking: BookingRecord;
  let linkBefore: string | null = null;
  try {
    booking = await db.transaction(async (tx) => {
      await lockHostBookings(tx, accountId);
      const { rows } = await tx.query<BookingRecord>(
        `select ${BOOKING_COLUMNS} from bookings where id = $1 and user_id = $2 for update`,
        [bookingId, accountId],
      );
      const current = rows[0];
      if (!current) throw new ApiError(404, 'Booking not found');
      if (!ALLOWED[action].includes(current.status)) {
        throw new ApiError(
          409,
          `A ${current.status} booking cannot be ${action === 'approve' ? 'approved' : `${action}d`}`,
        );
      }
      linkBefore = current.ext_meet_link;
      const status = action === 'approve' ? 'confirmed' : 'cancelled';
      const changed = (await setBookingStatus(
        tx,
        accountId,
        bookingId,
        status,
        action === 'approve' ? null : reason,
      )) as BookingRecord;
      if (!local) {
        await notify(tx, changed, action === 'approve' ? null : linkBefore);
        return changed;
      }
      const done = await apply(tx, changed);
      // A cancellation still names the link the guest had, so they know which meeting is off.
      await notify(tx, done, action === 'approve' ? done.ext_meet_link : linkBefore);
      return done;
    });
  } catch (error) {
    if (sqlState(error) === '23P01') throw new ApiError(409, SLOT_TAKEN);
    throw error;
  }
  return local ? booking : apply(db, booking);
}
