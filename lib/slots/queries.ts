import { WEEKDAYS } from '../availability/schema';
import type { PageForBooking } from '../booking-pages/queries';
import type { Sql } from '../db/client';
import { hostDayWindow, type Interval, type LocalInterval, type SlotInput, type WeeklyRules } from './slots';

type RuleRow = { weekday: number; start_time: string; end_time: string };
type OverrideRow = { override_date: string; start_time: string | null; end_time: string | null };

// Postgres prints time as HH:MM:SS; the slot engine takes HH:MM ("24:00:00" -> "24:00").
const hhmm = (time: string) => time.slice(0, 5);

/**
 * Everything computeSlots needs for one host-local day of a page: weekly rules, that day's override, and the busy
 * intervals overlapping the day (widened by the buffer), loaded with two indexed range queries.
 */
export async function loadSlotInput(db: Sql, page: PageForBooking, day: string, now: Date): Promise<SlotInput> {
  const bufferMinutes = page.buffer_time_minutes ?? 0;
  const window = hostDayWindow(day, page.host_timezone);
  const from = new Date(window.start.getTime() - bufferMinutes * 60_000);
  const to = new Date(window.end.getTime() + bufferMinutes * 60_000);
  const [rules, overrides, busy] = await Promise.all([
    db.query<RuleRow>(
      'select weekday, start_time::text, end_time::text from availability_rules where availability_set_id = $1',
      [page.availability_set_id],
    ),
    db.query<OverrideRow>(
      `select override_date::text, start_time::text, end_time::text from availability_overrides
       where availability_set_id = $1 and override_date = $2::date`,
      [page.availability_set_id, day],
    ),
    loadBusy(db, page.user_id, { start: from, end: to }),
  ]);
  const weekly: WeeklyRules = {};
  for (const rule of rules.rows) {
    // weekday is ISO (1 = Monday), WEEKDAYS runs Monday to Sunday.
    const weekday = WEEKDAYS[rule.weekday - 1];
    if (!weekday) continue;
    const intervals = weekly[weekday] ?? [];
    intervals.push({ start: hhmm(rule.start_time), end: hhmm(rule.end_time) });
    weekly[weekday] = intervals;
  }
  const overrideIntervals: LocalInterval[] = overrides.rows
    .filter((row) => row.start_time !== null && row.end_time !== null)
    .map((row) => ({ start: hhmm(row.start_time as string), end: hhmm(row.end_time as string) }));
  return {
    weekly,
    overrides: overrides.rows.length > 0 ? { [day]: overrideIntervals } : {},
    timezone: page.host_timezone,
    settings: {
      durationMinutes: page.duration_minutes,
      bufferMinutes,
      maxDaysAhead: page.max_days_ahead,
    },
    busy,
    now,
    day,
  };
}

/**
 * Busy time of a host inside a window: pending/confirmed bookings on any of their pages and synced/imported
 * calendar events. Both predicates match partial GiST indexes (the exclusion constraint's and calendar_events_busy_idx).
 */
export type BusyInterval = Interval & { source: 'booking' | 'event' };

export async function loadBusy(db: Sql, hostId: string, window: Interval): Promise<BusyInterval[]> {
  const { rows } = await db.query<{ start_time: Date; end_time: Date; source: 'booking' | 'event' }>(
    `select start_time, end_time, 'booking' as source from bookings
     where user_id = $1 and status in ('pending', 'confirmed')
       and tstzrange(start_time, end_time, '[)') && tstzrange(to_timestamp($2::float8 / 1000), to_timestamp($3::float8 / 1000), '[)')
     union all
     select start_time, end_time, 'event' as source from calendar_events
     where account_id = $1 and kind = 'busy' and cancelled_at is null
       and tstzrange(start_time, end_time, '[)') && tstzrange(to_timestamp($2::float8 / 1000), to_timestamp($3::float8 / 1000), '[)')`,
    // Epoch milliseconds, not Dates: PGlite sends a Date as toISOString(), which Postgres refuses after year 9999.
    [hostId, window.start.getTime(), window.end.getTime()],
  );
  return rows.map((row) => ({ start: new Date(row.start_time), end: new Date(row.end_time), source: row.source }));
}
