// Slot engine: pure, no I/O. Choices the product relies on (other modules and tests assume them):
//
// - Availability of a host-local day is the override for that date when one exists (an empty list means unavailable),
//   otherwise the weekly rules of the weekday of that local date. Intervals are wall-clock "HH:MM" in the host zone,
//   never cross midnight ("24:00" = next midnight) and are merged first when they overlap or touch, so one grid runs
//   through adjacent intervals. Malformed intervals or settings throw a RangeError instead of being silently skipped.
// - Candidates sit on a wall-clock grid: every (duration + buffer) minutes from each merged interval's start. A wall time
//   that does not exist (spring-forward gap) is skipped; an ambiguous one (fall-back) is offered once, at its first
//   occurrence, so the repeated hour itself gets no slots of its own. A slot lasts `duration` absolute minutes and must
//   end by the interval's end instant (a nonexistent end maps to the end of the gap; an ambiguous one to its first
//   occurrence).
// - In absolute time each kept candidate starts at least `buffer` minutes after the previous kept one ends, across all
//   intervals of the day; this drops candidates where the grid compresses around a gap. It is applied to the grid
//   before busy times and `now`, so the grid of a day never shifts when bookings come and go.
// - A slot is dropped when [start - buffer, end + buffer) overlaps a busy interval (half-open, so back-to-back
//   bookings are fine with buffer 0; an empty busy interval blocks nothing) or when start <= now.
// - max_days_ahead counts host-local calendar days from the host's today: 0 = today only, null = no limit; past days
//   have no slots.
// - Callers loading busy intervals for a day should widen hostDayWindow by the buffer on both sides, because the
//   buffer reaches beyond the day.

import {
  DAY_MS,
  dayTimeline,
  firstInstantOf,
  formatDay,
  instantAtOrAfter,
  isValidTimeZone as isValidZone,
  localDayOf,
  MINUTE_MS,
  parseDay,
  toWall,
  wallDate,
} from './time';

export type Weekday = 'mon' | 'tue' | 'wed' | 'thu' | 'fri' | 'sat' | 'sun';
/** Host-local wall-clock interval, "HH:MM" 24h; end may be "24:00"; start < end (no crossing midnight). */
export type LocalInterval = { start: string; end: string };
export type WeeklyRules = Partial<Record<Weekday, LocalInterval[]>>;
/** Date overrides: "YYYY-MM-DD" -> intervals that replace the weekly rules that day; [] = unavailable all day. */
export type Overrides = Record<string, LocalInterval[]>;
export type Interval = { start: Date; end: Date }; // half-open [start, end)
export type SlotSettings = { durationMinutes: number; bufferMinutes: number; maxDaysAhead: number | null };
export type SlotInput = {
  weekly: WeeklyRules;
  overrides: Overrides;
  timezone: string; // IANA name of the host
  settings: SlotSettings;
  busy: Interval[]; // pending/confirmed bookings and synced calendar events of the host (any order, may overlap)
  now: Date;
  day: string; // "YYYY-MM-DD", a calendar day in the host's timezone
};

// Indexed by Date#getUTCDay().
const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const satisfies readonly Weekday[];

const LOCAL_TIME_RE = /^(?:([01]\d|2[0-3]):([0-5]\d)|24:00)$/;

type MinuteRange = { start: number; end: number };
type Span = { start: number; end: number };

function localMinutes(value: string): number {
  const m = LOCAL_TIME_RE.exec(value);
  if (!m) throw new RangeError(`invalid local time "${value}", expected HH:MM`);
  if (m[1] === undefined) return 24 * 60;
  return Number(m[1]) * 60 + Number(m[2]);
}

function mergedMinuteRanges(intervals: readonly LocalInterval[]): MinuteRange[] {
  const ranges = intervals.map((interval) => {
    const start = localMinutes(interval.start);
    const end = localMinutes(interval.end);
    if (start >= end)
      throw new RangeError(`invalid interval ${interval.start}-${interval.end}: start must be before end`);
    return { start, end };
  });
  ranges.sort((a, b) => a.start - b.start);
  const merged: MinuteRange[] = [];
  for (const range of ranges) {
    const last = merged[merged.length - 1];
    if (last !== undefined && range.start <= last.end) last.end = Math.max(last.end, range.end);
    else merged.push({ ...range });
  }
  return merged;
}

function assertSettings(settings: SlotSettings): void {
  const { durationMinutes, bufferMinutes, maxDaysAhead } = settings;
  if (!Number.isInteger(durationMinutes) || durationMinutes < 1) {
    throw new RangeError(`durationMinutes must be an integer >= 1, got ${durationMinutes}`);
  }
  if (!Number.isInteger(bufferMinutes) || bufferMinutes < 0) {
    throw new RangeError(`bufferMinutes must be an integer >= 0, got ${bufferMinutes}`);
  }
  if (maxDaysAhead !== null && (!Number.isInteger(maxDaysAhead) || maxDaysAhead < 0)) {
    throw new RangeError(`maxDaysAhead must be null or an integer >= 0, got ${maxDaysAhead}`);
  }
}

function instantOf(date: Date, name: string): number {
  const ms = date.getTime();
  if (Number.isNaN(ms)) throw new RangeError(`${name} is an invalid Date`);
  return ms;
}

/** The day's wall-clock grid as absolute spans, before busy times and `now` are considered. */
function gridSpans(ranges: readonly MinuteRange[], timeZone: string, dayWall: number, settings: SlotSettings): Span[] {
  const timeline = dayTimeline(timeZone, dayWall);
  const durationMs = settings.durationMinutes * MINUTE_MS;
  const bufferMs = settings.bufferMinutes * MINUTE_MS;
  const step = settings.durationMinutes + settings.bufferMinutes;
  const spans: Span[] = [];
  let earliestNext = Number.NEGATIVE_INFINITY;
  for (const range of ranges) {
    const rangeEnd = instantAtOrAfter(timeline, dayWall + range.end * MINUTE_MS);
    for (let minute = range.start; minute < range.end; minute += step) {
      const start = firstInstantOf(timeline, dayWall + minute * MINUTE_MS);
      if (start === null) continue;
      const end = start + durationMs;
      // Candidate starts grow with the wall clock, so once one overruns the interval every later one does too.
      if (end > rangeEnd) break;
      if (start < earliestNext) continue;
      spans.push({ start, end });
      earliestNext = end + bufferMs;
    }
  }
  return spans;
}

/** Busy intervals that can touch [from, to), sorted and merged into disjoint spans. */
function mergedBusy(busy: readonly Interval[], from: number, to: number): Span[] {
  const relevant: Span[] = [];
  for (const interval of busy) {
    const start = interval.start.getTime();
    const end = interval.end.getTime();
    // NaN fails these comparisons, so invalid dates and empty intervals block nothing.
    if (start < end && start < to && end > from) relevant.push({ start, end });
  }
  relevant.sort((a, b) => a.start - b.start);
  const merged: Span[] = [];
  for (const span of relevant) {
    const last = merged[merged.length - 1];
    if (last !== undefined && span.start <= last.end) last.end = Math.max(last.end, span.end);
    else merged.push(span);
  }
  return merged;
}

/** Offered slots of `input.day`, in start order. Throws RangeError for a malformed day, interval, setting or zone. */
export function computeSlots(input: SlotInput): Interval[] {
  const { settings, timezone } = input;
  assertSettings(settings);
  const dayWall = parseDay(input.day);
  if (dayWall === null) throw new RangeError(`invalid day "${input.day}", expected YYYY-MM-DD`);
  const now = instantOf(input.now, 'now');

  const today = Math.floor(toWall(timezone, now) / DAY_MS);
  const daysAhead = dayWall / DAY_MS - today;
  if (daysAhead < 0 || (settings.maxDaysAhead !== null && daysAhead > settings.maxDaysAhead)) return [];

  const weekday = WEEKDAYS[new Date(dayWall).getUTCDay()];
  const intervals = input.overrides[input.day] ?? (weekday === undefined ? undefined : input.weekly[weekday]) ?? [];
  const ranges = mergedMinuteRanges(intervals);
  if (ranges.length === 0) return [];

  const grid = gridSpans(ranges, timezone, dayWall, settings);
  const first = grid[0];
  const last = grid[grid.length - 1];
  if (first === undefined || last === undefined) return [];

  const bufferMs = settings.bufferMinutes * MINUTE_MS;
  const busy = mergedBusy(input.busy, first.start - bufferMs, last.end + bufferMs);
  const slots: Interval[] = [];
  let b = 0;
  for (const span of grid) {
    if (span.start <= now) continue;
    const from = span.start - bufferMs;
    const to = span.end + bufferMs;
    // Grid starts increase, so busy spans that end before this padded slot end before every later one too.
    while (b < busy.length && (busy[b]?.end ?? Number.POSITIVE_INFINITY) <= from) b++;
    const blocking = busy[b];
    if (blocking !== undefined && blocking.start < to) continue;
    slots.push({ start: new Date(span.start), end: new Date(span.end) });
  }
  return slots;
}

// ISO 8601 extended calendar form only: seconds, fraction (. or ,) and the offset (Z, ±HH:MM, ±HHMM, ±HH) are optional.
const TIMESTAMP_RE =
  /^(\d{4})-(\d{2})-(\d{2})T([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d)(?:[.,](\d{1,9}))?)?(?:(Z)|([+-])([01]\d|2[0-3]):?([0-5]\d)|([+-])([01]\d|2[0-3]))?$/i;

/** Parses the API's `date` query value: "YYYY-MM-DD" (must be a real calendar date) -> that day; any ISO 8601 timestamp
 *  with time (e.g. 2026-03-08T10:00:00Z, 2026-03-08T10:00:00.000+05:30, 2026-03-08T10:00) -> the host-local day containing that instant
 *  (a timestamp without offset is read as host-local wall time). Anything else -> null. */
export function parseSlotDay(value: string, timezone: string): string | null {
  if (parseDay(value) !== null) return value;
  const m = TIMESTAMP_RE.exec(value);
  if (!m) return null;
  const dayWall = wallDate(Number(m[1]), Number(m[2]), Number(m[3]));
  if (dayWall === null) return null;
  const isUtc = m[8] !== undefined;
  const sign = m[9] ?? m[12];
  // Without an offset the wall time is already host-local, so its date is the day.
  if (!isUtc && sign === undefined) return formatDay(dayWall);
  const offsetMinutes = isUtc ? 0 : (sign === '-' ? -1 : 1) * (Number(m[10] ?? m[13]) * 60 + Number(m[11] ?? 0));
  const wall =
    dayWall +
    (Number(m[4]) * 60 + Number(m[5])) * MINUTE_MS +
    Number(m[6] ?? 0) * 1000 +
    Math.floor(Number(`0.${m[7] ?? '0'}`) * 1000);
  const day = localDayOf(wall - offsetMinutes * MINUTE_MS, timezone);
  return parseDay(day) === null ? null : day;
}

/** UTC window [start, end) of the host-local day (23, 24 or 25 hours long). Used to load busy intervals with an indexed range query. */
export function hostDayWindow(day: string, timezone: string): Interval {
  const dayWall = parseDay(day);
  if (dayWall === null) throw new RangeError(`invalid day "${day}", expected YYYY-MM-DD`);
  const timeline = dayTimeline(timezone, dayWall);
  return {
    start: new Date(instantAtOrAfter(timeline, dayWall)),
    end: new Date(instantAtOrAfter(timeline, dayWall + DAY_MS)),
  };
}

/** True when `slot` is exactly one of the slots computeSlots offers for the host day containing slot.start. Used by createBooking with a publishable key. */
export function isOfferedSlot(input: Omit<SlotInput, 'day'>, slot: Interval): boolean {
  const start = slot.start.getTime();
  const end = slot.end.getTime();
  if (Number.isNaN(start) || end - start !== input.settings.durationMinutes * MINUTE_MS) return false;
  const day = localDayOf(start, input.timezone);
  if (parseDay(day) === null) return false;
  return computeSlots({ ...input, day }).some((s) => s.start.getTime() === start && s.end.getTime() === end);
}

/** IANA name check via Intl; offset strings such as "+05:30" are refused even where Intl accepts them. */
export function isValidTimeZone(tz: string): boolean {
  return isValidZone(tz);
}

/** "YYYY-MM-DD" of the instant in the host's zone. */
export function hostLocalDay(instant: Date, timezone: string): string {
  return localDayOf(instantOf(instant, 'instant'), timezone);
}
