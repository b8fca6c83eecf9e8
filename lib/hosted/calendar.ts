// Calendar arithmetic and labels of the hosted page. Days are "YYYY-MM-DD" host-local calendar days (spec: slot
// days are calendar days in the host's zone), months "YYYY-MM"; both are handled as UTC dates, never as instants.
import { hostLocalDay } from '../slots/slots';
import { DAY_MS, formatDay, parseDay } from '../slots/time';

const MONTH_RE = /^(\d{4})-(0[1-9]|1[0-2])$/;

export function isDay(value: string | undefined): value is string {
  return value !== undefined && parseDay(value) !== null;
}

export function isMonth(value: string | undefined): value is string {
  return value !== undefined && MONTH_RE.test(value) && value >= '0001-01';
}

export function addDays(day: string, days: number): string {
  const wall = parseDay(day);
  if (wall === null) throw new RangeError(`invalid day "${day}"`);
  return formatDay(wall + days * DAY_MS);
}

export function monthOf(day: string): string {
  return day.slice(0, 7);
}

export function addMonths(month: string, months: number): string {
  const [year = 0, mon = 1] = month.split('-').map(Number);
  const index = year * 12 + (mon - 1) + months;
  return `${String(Math.floor(index / 12)).padStart(4, '0')}-${String((index % 12) + 1).padStart(2, '0')}`;
}

/** Every day of the month, in order. */
export function daysOfMonth(month: string): string[] {
  const days: string[] = [];
  for (let day = `${month}-01`; monthOf(day) === month; day = addDays(day, 1)) days.push(day);
  return days;
}

/** The month as weeks of seven cells, Sunday first; cells outside the month are null. */
export function monthWeeks(month: string): (string | null)[][] {
  const days = daysOfMonth(month);
  const first = days[0] as string;
  const cells: (string | null)[] = [...Array<null>(weekday(first)).fill(null), ...days];
  while (cells.length % 7 !== 0) cells.push(null);
  const weeks: (string | null)[][] = [];
  for (let i = 0; i < cells.length; i += 7) weeks.push(cells.slice(i, i + 7));
  return weeks;
}

/** 0 = Sunday. */
function weekday(day: string): number {
  return new Date(parseDay(day) as number).getUTCDay();
}

/** The bookable day range of a page: today in the host zone, and the last day max_days_ahead allows (null: none). */
export type DayRange = { first: string; last: string | null };

export function bookableRange(today: string, maxDaysAhead: number | null): DayRange {
  return { first: today, last: maxDaysAhead === null ? null : addDays(today, maxDaysAhead) };
}

export function inRange(day: string, range: DayRange): boolean {
  return day >= range.first && (range.last === null || day <= range.last);
}

// Days and months are UTC dates here, so formatting them in UTC prints exactly their calendar fields.
const monthTitle = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', month: 'long', year: 'numeric' });
const dayTitle = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', weekday: 'long', month: 'long', day: 'numeric' });
const dayLabel = new Intl.DateTimeFormat('en-US', {
  timeZone: 'UTC',
  weekday: 'long',
  month: 'long',
  day: 'numeric',
  year: 'numeric',
});

export function formatMonth(month: string): string {
  return monthTitle.format(parseDay(`${month}-01`) as number);
}

/** "Tuesday, December 1" */
export function formatDayTitle(day: string): string {
  return dayTitle.format(parseDay(day) as number);
}

/** "Tuesday, December 1, 2026", for screen readers on the grid's day numbers. */
export function formatDayLabel(day: string): string {
  return dayLabel.format(parseDay(day) as number);
}

/** Start of a slot for the guest: the time in their zone, and their date when it is not the host's day. */
export type SlotLabel = { time: string; date: string | null };

export function slotLabel(start: Date, guestTimeZone: string, hostDay: string): SlotLabel {
  const guestDay = hostLocalDay(start, guestTimeZone);
  const time = new Intl.DateTimeFormat('en-US', { timeZone: guestTimeZone, hour: 'numeric', minute: '2-digit' });
  const date = new Intl.DateTimeFormat('en-US', {
    timeZone: guestTimeZone,
    weekday: 'short',
    month: 'short',
    day: 'numeric',
  });
  return { time: time.format(start), date: guestDay === hostDay ? null : date.format(start) };
}

/** "Tuesday, December 1, 2026, 3:00 – 3:30 PM" in the guest's zone. */
export function formatSlotRange(start: Date, end: Date, timeZone: string): string {
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone,
    weekday: 'long',
    month: 'long',
    day: 'numeric',
    year: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  });
  return format.formatRange(start, end);
}

/** IANA zone names for the guest's picker; `extra` (the current choice) is kept even when Intl lists it by another name. */
export function timeZoneNames(extra: readonly string[]): string[] {
  const names = new Set(Intl.supportedValuesOf('timeZone'));
  names.add('UTC');
  for (const name of extra) names.add(name);
  return [...names].sort();
}
