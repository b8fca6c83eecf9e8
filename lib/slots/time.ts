// Time-zone arithmetic on top of Intl. Wall-clock times are handled as "wall ms": the local date and time read as if
// they were UTC, so minute arithmetic on wall time is plain addition and never depends on the zone's offset.

export const MINUTE_MS = 60_000;
export const DAY_MS = 86_400_000;

/** Sampling interval: an offset change undone within six hours would go unseen (zones keep an offset for months). */
const SAMPLE_MS = 6 * 3_600_000;
/** Wider than any UTC offset in the tz database (historic LMT offsets reach about ±15h56m). */
const OFFSET_MARGIN_MS = 18 * 3_600_000;

export type OffsetSegment = { from: number; offset: number };
/** Piecewise-constant UTC offset: each offset applies from its `from` instant until the next segment's. */
export type OffsetTimeline = readonly OffsetSegment[];

const DAY_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

export function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** Wall ms of a calendar date at 00:00, or null when it is not a real date (years 0001-9999). */
export function wallDate(year: number, month: number, day: number): number | null {
  if (year < 1 || year > 9999 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  const date = new Date(0);
  // setUTCFullYear rather than Date.UTC, which maps years 0-99 to 1900-1999.
  date.setUTCFullYear(year, month - 1, day);
  return date.getTime();
}

/** Wall ms of "YYYY-MM-DD" at 00:00, or null when it is not a real calendar date. */
export function parseDay(value: string): number | null {
  const m = DAY_RE.exec(value);
  if (!m) return null;
  return wallDate(Number(m[1]), Number(m[2]), Number(m[3]));
}

export function formatDay(wallMs: number): string {
  const date = new Date(Math.floor(wallMs / DAY_MS) * DAY_MS);
  const y = String(date.getUTCFullYear()).padStart(4, '0');
  const m = String(date.getUTCMonth() + 1).padStart(2, '0');
  const d = String(date.getUTCDate()).padStart(2, '0');
  return `${y}-${m}-${d}`;
}

// Building a DateTimeFormat costs far more than using one, and the hot path converts in the same few zones.
const formatters = new Map<string, Intl.DateTimeFormat>();
const MAX_CACHED_FORMATTERS = 512;

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      era: 'short',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    // Zone names are case-insensitive in Intl, so the key space is unbounded; a crude cap keeps memory flat.
    if (formatters.size >= MAX_CACHED_FORMATTERS) formatters.clear();
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

// en-US output such as "3/8/2026 AD, 01:30:00"; format() is about four times faster than formatToParts().
const FORMATTED_RE = /^(\d+)\/(\d+)\/(\d+),? (AD|BC),? (\d+):(\d+):(\d+)$/;

type WallFields = {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  bc: boolean;
};

function wallFields(formatter: Intl.DateTimeFormat, instantMs: number): WallFields {
  const m = FORMATTED_RE.exec(formatter.format(instantMs));
  if (m) {
    return {
      month: Number(m[1]),
      day: Number(m[2]),
      year: Number(m[3]),
      bc: m[4] === 'BC',
      hour: Number(m[5]),
      minute: Number(m[6]),
      second: Number(m[7]),
    };
  }
  // A different ICU build may format differently; the parts API is slower but layout-independent.
  const fields: WallFields = { year: 0, month: 0, day: 0, hour: 0, minute: 0, second: 0, bc: false };
  for (const part of formatter.formatToParts(instantMs)) {
    switch (part.type) {
      case 'year':
      case 'month':
      case 'day':
      case 'hour':
      case 'minute':
      case 'second':
        fields[part.type] = Number(part.value);
        break;
      case 'era':
        fields.bc = part.value === 'BC';
        break;
    }
  }
  return fields;
}

/** UTC offset in ms (local = instant + offset) in force at `instantMs`. Throws RangeError for an unknown zone. */
export function offsetAt(timeZone: string, instantMs: number): number {
  const f = wallFields(formatterFor(timeZone), instantMs);
  const date = new Date(0);
  date.setUTCFullYear(f.bc ? 1 - f.year : f.year, f.month - 1, f.day);
  date.setUTCHours(f.hour, f.minute, f.second);
  // Intl drops milliseconds, so compare against the instant truncated to the second.
  return date.getTime() - Math.floor(instantMs / 1000) * 1000;
}

/** Host-local wall ms of an instant. */
export function toWall(timeZone: string, instantMs: number): number {
  return instantMs + offsetAt(timeZone, instantMs);
}

export function localDayOf(instantMs: number, timeZone: string): string {
  return formatDay(toWall(timeZone, instantMs));
}

export function isValidTimeZone(timeZone: string): boolean {
  // Newer engines accept offset strings such as "+05:30" as zones; the product stores IANA names only.
  if (typeof timeZone !== 'string' || !/^[A-Za-z]/.test(timeZone)) return false;
  try {
    formatterFor(timeZone);
    return true;
  } catch {
    return false;
  }
}

/**
 * Offsets in force while the wall clock shows any time of the day starting at `dayWallMs` (inclusive of the next
 * midnight). Sampling plus bisection keeps this to about a dozen Intl calls per day, so that converting each slot
 * candidate afterwards is pure arithmetic.
 */
export function dayTimeline(timeZone: string, dayWallMs: number): OffsetTimeline {
  const from = dayWallMs - OFFSET_MARGIN_MS;
  const to = dayWallMs + DAY_MS + OFFSET_MARGIN_MS;
  let lo = from;
  let loOffset = offsetAt(timeZone, lo);
  const timeline: OffsetSegment[] = [{ from: Number.NEGATIVE_INFINITY, offset: loOffset }];
  while (lo < to) {
    const sample = Math.min(lo + SAMPLE_MS, to);
    const sampleOffset = offsetAt(timeZone, sample);
    while (loOffset !== sampleOffset) {
      // Transitions happen on whole seconds, so bisecting to one second finds the exact instant.
      let hi = sample;
      while (hi - lo > 1000) {
        const mid = lo + Math.floor((hi - lo) / 2000) * 1000;
        if (offsetAt(timeZone, mid) === loOffset) lo = mid;
        else hi = mid;
      }
      const hiOffset = hi === sample ? sampleOffset : offsetAt(timeZone, hi);
      timeline.push({ from: hi, offset: hiOffset });
      lo = hi;
      loOffset = hiOffset;
    }
    lo = sample;
  }
  return timeline;
}

/** Earliest instant at which the wall clock shows `wallMs`; null inside a gap (spring forward). */
export function firstInstantOf(timeline: OffsetTimeline, wallMs: number): number | null {
  for (let i = 0; i < timeline.length; i++) {
    const segment = timeline[i];
    if (segment === undefined) break;
    const instant = wallMs - segment.offset;
    const next = timeline[i + 1];
    if (instant >= segment.from && (next === undefined || instant < next.from)) return instant;
  }
  return null;
}

/**
 * Earliest instant at which the wall clock shows `wallMs` or later: the first occurrence of an existing wall time,
 * and the end of the gap for a wall time that is skipped.
 */
export function instantAtOrAfter(timeline: OffsetTimeline, wallMs: number): number {
  for (let i = 0; i < timeline.length; i++) {
    const segment = timeline[i];
    if (segment === undefined) break;
    const instant = wallMs - segment.offset;
    const next = timeline[i + 1];
    if (next === undefined) return instant;
    if (instant >= segment.from && instant < next.from) return instant;
    if (instant >= next.from && wallMs - next.offset < next.from) return next.from;
  }
  // Unreachable: the last segment is open-ended and always returns above.
  return wallMs;
}
