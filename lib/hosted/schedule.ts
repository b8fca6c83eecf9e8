// Which days and slots the hosted page offers: every answer comes from listSlots, the function behind the API's
// GET /booking-pages/{slug}/slots, so a slot shown here is one createBooking accepts (spec: createBooking rule 1).
import type { PageForBooking } from '../booking-pages/queries';
import type { Sql } from '../db/client';
import { listSlots, type TimeSlot } from '../slots/service';
import { hostLocalDay } from '../slots/slots';
import { addDays, bookableRange, daysOfMonth, inRange, isDay, isMonth, monthOf } from './calendar';

// How far the page looks for the first open day when the guest has not picked one: a month of closed days
// (a host on holiday) is plausible; scanning further would slow every first visit.
const FIRST_DAY_SCAN = 45;

export type Schedule = {
  /** Host-local today, and the bookable range from it. */
  today: string;
  last: string | null;
  /** The month shown in the grid. */
  month: string;
  /** Days of that month with at least one open slot. */
  openDays: Set<string>;
  /** The chosen day (from the query or the first open day) and its slots. */
  day: string | null;
  slots: TimeSlot[];
};

export async function loadSchedule(
  db: Sql,
  page: PageForBooking,
  query: { date?: string; month?: string },
  now: Date,
): Promise<Schedule> {
  const today = hostLocalDay(now, page.host_timezone);
  const range = bookableRange(today, page.max_days_ahead);
  const slotsOf = (day: string) => (inRange(day, range) ? listSlots(db, page, day, now) : Promise.resolve([]));

  let day: string | null = isDay(query.date) ? query.date : null;
  let daySlots: TimeSlot[] | null = null;
  if (day === null && !isMonth(query.month)) {
    for (let i = 0; i <= FIRST_DAY_SCAN && inRange(addDays(today, i), range); i++) {
      const slots = await slotsOf(addDays(today, i));
      if (slots.length > 0) {
        day = addDays(today, i);
        daySlots = slots;
        break;
      }
    }
  }
  const month = isMonth(query.month) ? query.month : monthOf(day ?? today);

  const openDays = new Set<string>();
  // One listSlots per day: sequential, since PGlite runs one query at a time anyway.
  for (const candidate of daysOfMonth(month)) {
    if (!inRange(candidate, range)) continue;
    const slots = candidate === day && daySlots ? daySlots : await slotsOf(candidate);
    if (slots.length > 0) openDays.add(candidate);
    if (candidate === day) daySlots = slots;
  }
  if (day !== null && daySlots === null) daySlots = await slotsOf(day);
  return { today, last: range.last, month, openDays, day, slots: daySlots ?? [] };
}
