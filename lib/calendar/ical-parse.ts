// Busy time from an iCalendar feed (RFC 5545): which VEVENTs block the host, and when. Pure; no I/O.
//
// Times: UTC values (`...Z`), zoned values (TZID, an IANA name, a vendor-prefixed one such as
// "/mozilla.org/.../Europe/Berlin", or a common Windows name), floating values (read in the host's zone) and
// all-day DATE values (host-local days). Skipped: STATUS:CANCELLED, TRANSP:TRANSPARENT, events without a length.
// Recurrence: RRULE FREQ=DAILY / WEEKLY (BYDAY) / MONTHLY (BYMONTHDAY, or BYDAY with or without an ordinal) /
// YEARLY, with INTERVAL, COUNT, UNTIL, BYMONTH as a filter, plus RDATE, EXDATE and RECURRENCE-ID overrides. Any other
// rule part (BYSETPOS, BYHOUR, BYWEEKNO, HOURLY, ...) keeps only the first occurrence and adds a note.
import type { Interval } from '../slots/slots';
import { DAY_MS, daysInMonth, dayTimeline, instantAtOrAfter, isValidTimeZone, toWall, wallDate } from '../slots/time';
import { WINDOWS_ZONES } from './windows-zones';

export type Property = { name: string; params: Record<string, string>; value: string };
export type Component = { name: string; props: Property[]; children: Component[] };

/** A DATE (all-day, host-local) or a DATE-TIME as wall-clock ms in a zone ("UTC" for `Z` values). */
export type IcalTime = { kind: 'date'; wall: number } | { kind: 'date-time'; wall: number; zone: string };

export type ParseOptions = { timezone: string; from: Date; to: Date };
export type ParseResult = { busy: Interval[]; notes: string[] };

// Bounds for hostile or broken feeds: nesting, recurrence periods walked, and instances kept per event.
const MAX_DEPTH = 16;
const MAX_PERIODS = 100_000;
const MAX_INSTANCES_PER_EVENT = 2_000;

/** Joins folded lines (CRLF followed by a space or tab, RFC 5545 3.1); bare LF is accepted too. */
export function unfold(text: string): string[] {
  return text
    .replace(/\r?\n[ \t]/g, '')
    .split(/\r?\n|\r/)
    .filter((line) => line.trim() !== '');
}

/** `NAME;PARAM=a;PARAM="b:c":value`; null for a line that is not a content line. */
export function parseContentLine(line: string): Property | null {
  let inQuotes = false;
  let colon = -1;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === '"') inQuotes = !inQuotes;
    else if (c === ':' && !inQuotes) {
      colon = i;
      break;
    }
  }
  if (colon <= 0) return null;
  const head = line.slice(0, colon);
  const parts: string[] = [];
  let current = '';
  inQuotes = false;
  for (const c of head) {
    if (c === '"') inQuotes = !inQuotes;
    if (c === ';' && !inQuotes) {
      parts.push(current);
      current = '';
    } else current += c;
  }
  parts.push(current);
  const [name = '', ...rawParams] = parts;
  const params: Record<string, string> = {};
  for (const raw of rawParams) {
    const eq = raw.indexOf('=');
    if (eq <= 0) continue;
    params[raw.slice(0, eq).toUpperCase()] = raw.slice(eq + 1).replace(/^"(.*)"$/, '$1');
  }
  return { name: name.toUpperCase(), params, value: line.slice(colon + 1) };
}

/** The top-level components (normally one VCALENDAR); unbalanced BEGIN/END lines are tolerated. */
export function parseComponents(text: string): Component[] {
  const roots: Component[] = [];
  const stack: Component[] = [];
  for (const line of unfold(text)) {
    const prop = parseContentLine(line);
    if (!prop) continue;
    if (prop.name === 'BEGIN') {
      if (stack.length >= MAX_DEPTH) throw new Error('the feed nests components too deeply');
      stack.push({ name: prop.value.trim().toUpperCase(), props: [], children: [] });
    } else if (prop.name === 'END') {
      const name = prop.value.trim().toUpperCase();
      const index = stack.map((c) => c.name).lastIndexOf(name);
      if (index === -1) continue;
      while (stack.length > index) {
        const done = stack.pop() as Component;
        const parent = stack.at(-1);
        if (parent) parent.children.push(done);
        else roots.push(done);
      }
    } else {
      stack.at(-1)?.props.push(prop);
    }
  }
  return roots;
}

function collectEvents(components: Component[], out: Component[] = []): Component[] {
  for (const component of components) {
    if (component.name === 'VEVENT') out.push(component);
    else if (component.name === 'VCALENDAR') collectEvents(component.children, out);
  }
  return out;
}

/** An IANA zone for a TZID, or null when none can be recognised. */
export function resolveZone(tzid: string): string | null {
  const name = tzid.trim();
  if (/^[A-Za-z]/.test(name) && isValidTimeZone(name)) return name;
  const windows = WINDOWS_ZONES[name];
  if (windows) return windows;
  const parts = name.split('/').filter(Boolean);
  for (let i = 1; i < parts.length; i++) {
    const candidate = parts.slice(i).join('/');
    if (/^[A-Za-z]/.test(candidate) && candidate.includes('/') && isValidTimeZone(candidate)) return candidate;
  }
  return null;
}

const DATE_RE = /^(\d{4})(\d{2})(\d{2})$/;
const DATE_TIME_RE = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})(Z?)$/i;

/** One DATE or DATE-TIME value; floating values and unknown zones are read in `hostZone`. */
export function parseTimeValue(
  value: string,
  params: Record<string, string>,
  hostZone: string,
  notes?: Set<string>,
): IcalTime | null {
  const text = value.trim();
  const date = DATE_RE.exec(text);
  if (date) {
    const wall = wallDate(Number(date[1]), Number(date[2]), Number(date[3]));
    return wall === null ? null : { kind: 'date', wall };
  }
  const m = DATE_TIME_RE.exec(text);
  if (!m) return null;
  const day = wallDate(Number(m[1]), Number(m[2]), Number(m[3]));
  const [hour, minute, second] = [Number(m[4]), Number(m[5]), Math.min(59, Number(m[6]))];
  if (day === null || hour > 23 || minute > 59) return null;
  const wall = day + ((hour * 60 + minute) * 60 + second) * 1000;
  if (m[7]) return { kind: 'date-time', wall, zone: 'UTC' };
  const tzid = params.TZID;
  if (!tzid) return { kind: 'date-time', wall, zone: hostZone };
  const zone = resolveZone(tzid);
  if (!zone) notes?.add(`unknown time zone "${tzid.slice(0, 60)}" read as the host's zone`);
  return { kind: 'date-time', wall, zone: zone ?? hostZone };
}

/** Converts wall times to instants, caching one offset timeline per zone and day. */
class Clock {
  private readonly timelines = new Map<string, ReturnType<typeof dayTimeline>>();
  constructor(readonly hostZone: string) {}

  instant(time: IcalTime): number {
    if (time.kind === 'date-time' && time.zone === 'UTC') return time.wall;
    const zone = time.kind === 'date' ? this.hostZone : time.zone;
    const day = Math.floor(time.wall / DAY_MS) * DAY_MS;
    const key = `${zone} ${day}`;
    let timeline = this.timelines.get(key);
    if (!timeline) {
      timeline = dayTimeline(zone, day);
      this.timelines.set(key, timeline);
    }
    // A wall time skipped by a DST gap starts when the gap ends, as calendar apps show it.
    return instantAtOrAfter(timeline, time.wall);
  }
}

type Duration = { days: number; ms: number };

export function parseDuration(value: string): Duration | null {
  const m = /^([+-])?P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$/i.exec(value.trim());
  if (!m || value.trim().toUpperCase() === 'P' || /T$/i.test(value.trim())) return null;
  const sign = m[1] === '-' ? -1 : 1;
  const days = Number(m[2] ?? 0) * 7 + Number(m[3] ?? 0);
  const ms = ((Number(m[4] ?? 0) * 60 + Number(m[5] ?? 0)) * 60 + Number(m[6] ?? 0)) * 1000;
  return { days: sign * days, ms: sign * ms };
}

type Weekday = { ordinal: number | null; day: number };
type Rule = {
  freq: 'DAILY' | 'WEEKLY' | 'MONTHLY' | 'YEARLY';
  interval: number;
  count: number | null;
  until: IcalTime | null;
  byDay: Weekday[] | null;
  byMonthDay: number[] | null;
  byMonth: number[] | null;
  weekStart: number;
};

const WEEKDAYS: Record<string, number> = { SU: 0, MO: 1, TU: 2, WE: 3, TH: 4, FR: 5, SA: 6 };
const SUPPORTED_PARTS = new Set(['FREQ', 'INTERVAL', 'COUNT', 'UNTIL', 'BYDAY', 'BYMONTHDAY', 'BYMONTH', 'WKST']);

/** An RRULE this module can expand, or null (then only the first occurrence counts). */
export function parseRule(value: string, hostZone: string): Rule | null {
  const parts = new Map<string, string>();
  for (const part of value.split(';')) {
    const [key, v] = part.split('=');
    if (key && v !== undefined) parts.set(key.trim().toUpperCase(), v.trim().toUpperCase());
  }
  for (const key of parts.keys()) if (!SUPPORTED_PARTS.has(key)) return null;
  const freq = parts.get('FREQ');
  if (freq !== 'DAILY' && freq !== 'WEEKLY' && freq !== 'MONTHLY' && freq !== 'YEARLY') return null;
  const interval = Number(parts.get('INTERVAL') ?? 1);
  const count = parts.has('COUNT') ? Number(parts.get('COUNT')) : null;
  if (!Number.isInteger(interval) || interval < 1 || (count !== null && (!Number.isInteger(count) || count < 1))) {
    return null;
  }
  const untilText = parts.get('UNTIL');
  const until = untilText ? parseTimeValue(untilText, {}, hostZone) : null;
  if (untilText && !until) return null;

  let byDay: Weekday[] | null = null;
  const byDayText = parts.get('BYDAY');
  if (byDayText) {
    byDay = [];
    for (const item of byDayText.split(',')) {
      const m = /^([+-]?\d{1,2})?(SU|MO|TU|WE|TH|FR|SA)$/.exec(item.trim());
      if (!m) return null;
      byDay.push({ ordinal: m[1] ? Number(m[1]) : null, day: WEEKDAYS[m[2] as string] as number });
    }
    // Ordinals ("2TU") only make sense here for MONTHLY; YEARLY BYDAY is not supported.
    if (freq === 'YEARLY' || (freq !== 'MONTHLY' && byDay.some((d) => d.ordinal !== null))) return null;
  }
  const numbers = (key: string, min: number, max: number): number[] | null | undefined => {
    const text = parts.get(key);
    if (!text) return null;
    const list = text.split(',').map(Number);
    return list.every((n) => Number.isInteger(n) && n !== 0 && Math.abs(n) >= min && Math.abs(n) <= max)
      ? list
      : undefined;
  };
  const byMonthDay = numbers('BYMONTHDAY', 1, 31);
  const byMonth = numbers('BYMONTH', 1, 12);
  if (byMonthDay === undefined || byMonth === undefined) return null;
  if (byMonth?.some((n) => n < 0)) return null;
  if (byMonthDay && (freq === 'WEEKLY' || freq === 'YEARLY' || byDay)) return null;
  const weekStart = WEEKDAYS[parts.get('WKST') ?? 'MO'];
  if (weekStart === undefined) return null;
  return { freq, interval, count, until, byDay, byMonthDay, byMonth, weekStart };
}

const weekdayOf = (dayWall: number) => new Date(dayWall).getUTCDay();
const dayOf = (wall: number) => Math.floor(wall / DAY_MS) * DAY_MS;

function ymd(wall: number): { year: number; month: number; day: number } {
  const date = new Date(wall);
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
}

/** First day of one period (a day, week, month or year) and its candidate days, in order. */
function period(rule: Rule, start: number, index: number): { begin: number; days: number[] } {
  const first = dayOf(start);
  const s = ymd(first);
  switch (rule.freq) {
    case 'DAILY': {
      const day = first + index * rule.interval * DAY_MS;
      return { begin: day, days: [day] };
    }
    case 'WEEKLY': {
      const weekBegin = first - ((weekdayOf(first) - rule.weekStart + 7) % 7) * DAY_MS;
      const begin = weekBegin + index * rule.interval * 7 * DAY_MS;
      const wanted = rule.byDay ? rule.byDay.map((d) => d.day) : [weekdayOf(first)];
      const days: number[] = [];
      for (let offset = 0; offset < 7; offset++) {
        const day = begin + offset * DAY_MS;
        if (wanted.includes(weekdayOf(day))) days.push(day);
      }
      return { begin, days };
    }
    case 'MONTHLY': {
      const monthIndex = s.year * 12 + (s.month - 1) + index * rule.interval;
      const year = Math.floor(monthIndex / 12);
      const month = (monthIndex % 12) + 1;
      const begin = wallDate(year, month, 1);
      if (begin === null) return { begin: Number.POSITIVE_INFINITY, days: [] };
      const length = daysInMonth(year, month);
      const days = new Set<number>();
      if (rule.byDay) {
        for (const wanted of rule.byDay) {
          const matches: number[] = [];
          // The first such weekday of the month, then every seventh day.
          for (let d = 1 + ((wanted.day - weekdayOf(begin) + 7) % 7); d <= length; d += 7) {
            matches.push(begin + (d - 1) * DAY_MS);
          }
          if (wanted.ordinal === null) for (const wall of matches) days.add(wall);
          else {
            const pick = wanted.ordinal > 0 ? matches[wanted.ordinal - 1] : matches[matches.length + wanted.ordinal];
            if (pick !== undefined) days.add(pick);
          }
        }
      } else {
        for (const n of rule.byMonthDay ?? [s.day]) {
          const d = n > 0 ? n : length + n + 1;
          if (d >= 1 && d <= length) days.add(begin + (d - 1) * DAY_MS);
        }
      }
      return { begin, days: [...days].sort((a, b) => a - b) };
    }
    case 'YEARLY': {
      const year = s.year + index * rule.interval;
      const begin = wallDate(year, 1, 1) ?? Number.POSITIVE_INFINITY;
      // Invalid dates (29 February in other years) are skipped, as RFC 5545 3.3.10 says.
      const wall = wallDate(year, s.month, s.day);
      return { begin, days: wall === null ? [] : [wall] };
    }
  }
}

function matchesFilters(rule: Rule, day: number): boolean {
  if (rule.byMonth && !rule.byMonth.includes(ymd(day).month)) return false;
  if (rule.freq === 'DAILY') {
    if (rule.byDay && !rule.byDay.some((d) => d.day === weekdayOf(day))) return false;
    if (rule.byMonthDay) {
      const { year, month, day: d } = ymd(day);
      const length = daysInMonth(year, month);
      if (!rule.byMonthDay.some((n) => (n > 0 ? n : length + n + 1) === d)) return false;
    }
  }
  return true;
}

/** Start walls of a recurring event, DTSTART first, up to `limitWall` (COUNT and UNTIL applied). */
export function expandRule(rule: Rule, start: IcalTime, limitWall: number): { walls: number[]; capped: boolean } {
  const timeOfDay = start.wall - dayOf(start.wall);
  const untilWall =
    rule.until === null
      ? Number.POSITIVE_INFINITY
      : rule.until.kind === 'date'
        ? rule.until.wall + (start.kind === 'date' ? 0 : DAY_MS - 1)
        : start.kind === 'date-time' && rule.until.zone === 'UTC' && start.zone !== 'UTC'
          ? toWall(start.zone, rule.until.wall)
          : rule.until.wall;
  const walls = [start.wall];
  const stop = Math.min(untilWall, limitWall);
  let produced = 1;
  for (let index = 0; index < MAX_PERIODS; index++) {
    const { begin, days } = period(rule, start.wall, index);
    if (begin > stop) return { walls, capped: false };
    for (const day of days) {
      const wall = day + timeOfDay;
      if (wall <= start.wall) continue;
      if (wall > stop) return { walls, capped: false };
      if (!matchesFilters(rule, day)) continue;
      if (rule.count !== null && produced >= rule.count) return { walls, capped: false };
      produced++;
      walls.push(wall);
      if (walls.length > 100 * MAX_INSTANCES_PER_EVENT) return { walls, capped: true };
    }
  }
  return { walls, capped: true };
}

type ParsedEvent = {
  uid: string | null;
  start: IcalTime;
  end: IcalTime | null;
  duration: Duration | null;
  rule: string | null;
  exdates: IcalTime[];
  rdates: IcalTime[];
  recurrenceId: IcalTime | null;
  skip: boolean;
};

function readEvent(component: Component, hostZone: string, notes: Set<string>): ParsedEvent | null {
  const get = (name: string) => component.props.find((p) => p.name === name);
  const dtstart = get('DTSTART');
  if (!dtstart) return null;
  const start = parseTimeValue(dtstart.value, dtstart.params, hostZone, notes);
  if (!start) {
    notes.add('an event with an unreadable DTSTART was skipped');
    return null;
  }
  const dtend = get('DTEND');
  const durationProp = get('DURATION');
  const list = (name: string) =>
    component.props
      .filter((p) => p.name === name && (p.params.VALUE ?? '').toUpperCase() !== 'PERIOD')
      .flatMap((p) => p.value.split(',').map((v) => parseTimeValue(v, p.params, hostZone, notes)))
      .filter((t): t is IcalTime => t !== null);
  const recurrence = get('RECURRENCE-ID');
  const status = get('STATUS')?.value.trim().toUpperCase();
  const transp = get('TRANSP')?.value.trim().toUpperCase();
  return {
    uid: get('UID')?.value.trim() ?? null,
    start,
    end: dtend ? parseTimeValue(dtend.value, dtend.params, hostZone, notes) : null,
    duration: durationProp ? parseDuration(durationProp.value) : null,
    rule: get('RRULE')?.value ?? null,
    exdates: list('EXDATE'),
    rdates: list('RDATE'),
    recurrenceId: recurrence ? parseTimeValue(recurrence.value, recurrence.params, hostZone, notes) : null,
    skip: status === 'CANCELLED' || transp === 'TRANSPARENT',
  };
}

/** The interval of one occurrence starting at `start`, with the event's length; null when it has none. */
function occurrence(event: ParsedEvent, start: IcalTime, clock: Clock): Interval | null {
  const startMs = clock.instant(start);
  let endMs: number;
  if (event.end) {
    if (event.start.kind === 'date' && event.end.kind === 'date') {
      endMs = clock.instant({ kind: 'date', wall: start.wall + (event.end.wall - event.start.wall) });
    } else {
      endMs = startMs + (clock.instant(event.end) - clock.instant(event.start));
    }
  } else if (event.duration) {
    // Days are nominal (the same wall time n days later), hours exact (RFC 5545 3.3.6).
    const shifted = { ...start, wall: start.wall + event.duration.days * DAY_MS } as IcalTime;
    endMs = clock.instant(shifted) + (start.kind === 'date' ? 0 : event.duration.ms);
  } else {
    // RFC 5545 3.6.1: a DATE start without an end lasts one day; a DATE-TIME one has no length.
    endMs = start.kind === 'date' ? clock.instant({ kind: 'date', wall: start.wall + DAY_MS }) : startMs;
  }
  return endMs > startMs ? { start: new Date(startMs), end: new Date(endMs) } : null;
}

/** Busy intervals of a feed that overlap [from, to), in the order found (not merged). */
export function parseBusy(text: string, options: ParseOptions): ParseResult {
  const notes = new Set<string>();
  const clock = new Clock(options.timezone);
  const from = options.from.getTime();
  const to = options.to.getTime();
  // Walls differ from instants by less than a day in every zone, so two days of margin bound the expansion.
  const limitWall = to + 2 * DAY_MS;
  const events = collectEvents(parseComponents(text))
    .map((component) => readEvent(component, options.timezone, notes))
    .filter((event): event is ParsedEvent => event !== null);

  // RECURRENCE-ID: a changed (or cancelled) occurrence replaces the master's occurrence at that time.
  const overridden = new Map<string, Set<number>>();
  for (const event of events) {
    if (!event.recurrenceId || !event.uid) continue;
    const set = overridden.get(event.uid) ?? new Set<number>();
    set.add(clock.instant(event.recurrenceId));
    overridden.set(event.uid, set);
  }

  const busy: Interval[] = [];
  for (const event of events) {
    if (event.skip) continue;
    let starts: IcalTime[] = [event.start];
    if (event.rule && !event.recurrenceId) {
      const rule = parseRule(event.rule, options.timezone);
      if (!rule) {
        notes.add('a recurrence rule this service does not expand: only its first occurrence blocks time');
      } else {
        const { walls, capped } = expandRule(rule, event.start, limitWall);
        if (capped) notes.add('a recurrence with too many occurrences was cut short');
        starts = walls.map((wall) => ({ ...event.start, wall }) as IcalTime);
      }
    }
    if (!event.recurrenceId) {
      for (const rdate of event.rdates) {
        starts.push(event.start.kind === rdate.kind ? rdate : { ...event.start, wall: rdate.wall });
      }
    }
    const excludedInstants = new Set(event.exdates.filter((t) => t.kind === 'date-time').map((t) => clock.instant(t)));
    const excludedDays = new Set(event.exdates.filter((t) => t.kind === 'date').map((t) => t.wall));
    const skipped = (event.uid && !event.recurrenceId && overridden.get(event.uid)) || null;
    // Occurrences that end long before the window are dropped before any time-zone arithmetic.
    const reach =
      Math.abs((event.end?.wall ?? event.start.wall) - event.start.wall) +
      Math.abs((event.duration?.days ?? 1) * DAY_MS) +
      Math.abs(event.duration?.ms ?? 0) +
      2 * DAY_MS;
    let kept = 0;
    for (const start of starts) {
      if (start.wall > limitWall || start.wall + reach < from) continue;
      if (excludedDays.has(dayOf(start.wall))) continue;
      const interval = occurrence(event, start, clock);
      if (!interval) continue;
      const startMs = interval.start.getTime();
      if (excludedInstants.has(startMs) || skipped?.has(startMs)) continue;
      if (startMs >= to || interval.end.getTime() <= from) continue;
      busy.push(interval);
      if (++kept >= MAX_INSTANCES_PER_EVENT) {
        notes.add('a recurrence with too many occurrences was cut short');
        break;
      }
    }
  }
  return { busy, notes: [...notes].slice(0, 10) };
}
