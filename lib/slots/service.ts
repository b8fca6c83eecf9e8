import type { PageForBooking } from '../booking-pages/queries';
import type { Sql } from '../db/client';
import { ApiError } from '../http/errors';
import { slotTimestamp } from '../http/format';
import { type BusyInterval, loadSlotInput } from './queries';
import { computeSlots, hostLocalDay, type Interval, isOfferedSlot, parseSlotDay } from './slots';

export type TimeSlot = { start: string; end: string };

/** listSlots: the page's open slots on the host-local day named by `date` (YYYY-MM-DD or an ISO timestamp). */
export async function listSlots(db: Sql, page: PageForBooking, date: string, now: Date): Promise<TimeSlot[]> {
  const day = parseSlotDay(date, page.host_timezone);
  if (!day) throw new ApiError(400, '`date` must be YYYY-MM-DD or an ISO 8601 timestamp');
  const input = await loadSlotInput(db, page, day, now);
  return computeSlots(input).map((slot) => ({ start: slotTimestamp(slot.start), end: slotTimestamp(slot.end) }));
}

/**
 * createBooking with a publishable key (and the hosted page): `offered` only for a slot listSlots would offer
 * right now. A slot of the page's grid that a pending/confirmed booking holds is `taken` (spec rule 3's "no longer
 * available"); anything else is `not_offered` (rule 1).
 */
export async function slotAvailability(
  db: Sql,
  page: PageForBooking,
  slot: Interval,
  now: Date,
): Promise<'offered' | 'taken' | 'not_offered'> {
  if (Number.isNaN(slot.start.getTime()) || Number.isNaN(slot.end.getTime())) return 'not_offered';
  const day = hostLocalDay(slot.start, page.host_timezone);
  // A day outside the calendar the engine accepts (years 0001-9999) offers nothing.
  if (parseSlotDay(day, page.host_timezone) === null) return 'not_offered';
  const { day: _day, ...input } = await loadSlotInput(db, page, day, now);
  if (isOfferedSlot(input, slot)) return 'offered';
  const withoutBookings = input.busy.filter((busy) => (busy as BusyInterval).source !== 'booking');
  return isOfferedSlot({ ...input, busy: withoutBookings }, slot) ? 'taken' : 'not_offered';
}

export async function isSlotOffered(db: Sql, page: PageForBooking, slot: Interval, now: Date): Promise<boolean> {
  return (await slotAvailability(db, page, slot, now)) === 'offered';
}
