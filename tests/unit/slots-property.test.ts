import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import {
  computeSlots,
  hostDayWindow,
  type Interval,
  isOfferedSlot,
  type LocalInterval,
  type Overrides,
  type SlotInput,
  type Weekday,
  type WeeklyRules,
} from '../../lib/slots/slots';

// The oracle below reads the wall time of every minute around the day straight from Intl, independently of the
// engine's offset timeline, so the properties also check the time-zone arithmetic.

const ZONES = [
  'America/New_York',
  'Europe/Berlin',
  'Australia/Sydney',
  'America/St_Johns',
  'Pacific/Chatham',
  'Asia/Kolkata',
  'Asia/Kathmandu',
  'Asia/Tokyo',
  'UTC',
] as const;

// Transition days of those zones in 2026, in both hemispheres.
const TRANSITION_DAYS = [
  '2026-03-08',
  '2026-11-01',
  '2026-03-29',
  '2026-10-25',
  '2026-04-05',
  '2026-10-04',
  '2026-09-27',
] as const;

const WEEKDAYS: readonly Weekday[] = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
const MINUTE = 60_000;
const NUM_RUNS = 150;

function dayNumber(day: string): number {
  return Date.parse(`${day}T00:00:00Z`) / 86_400_000;
}

function dayFromNumber(n: number): string {
  return new Date(n * 86_400_000).toISOString().slice(0, 10);
}

function hhmm(minutes: number): string {
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

function minutesOf(value: string): number {
  return Number(value.slice(0, 2)) * 60 + Number(value.slice(3, 5));
}

/** "YYYY-MM-DD HH:MM" key of a wall time; "24:00" becomes the next day's midnight so keys compare as strings. */
function wallKey(day: string, minutes: number): string {
  return minutes === 1440 ? `${dayFromNumber(dayNumber(day) + 1)} 00:00` : `${day} ${hhmm(minutes)}`;
}

const oracleFormatters = new Map<string, Intl.DateTimeFormat>();

function oracleKey(timezone: string, instant: number): string {
  let f = oracleFormatters.get(timezone);
  if (!f) {
    // Swedish formats dates as ISO 8601, which is exactly the key layout.
    f = new Intl.DateTimeFormat('sv-SE', {
      timeZone: timezone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    });
    oracleFormatters.set(timezone, f);
  }
  const key = f.format(instant);
  assert.match(key, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
  return key;
}

type Scan = {
  /** Wall-time key -> first instant showing it. */
  first: Map<string, number>;
  minutes: { t: number; key: string }[];
};

const scans = new Map<string, Scan>();

/** Wall time of every minute around the host day. */
function scanDay(timezone: string, day: string): Scan {
  const id = `${timezone} ${day}`;
  const cached = scans.get(id);
  if (cached) return cached;
  // The engine's window only bounds the scan; the assertions below make sure the scan covers the whole day.
  const window = hostDayWindow(day, timezone);
  const from = window.start.getTime() - 3 * 60 * MINUTE;
  const to = window.end.getTime() + 3 * 60 * MINUTE;
  const minutes: Scan['minutes'] = [];
  const first = new Map<string, number>();
  for (let t = from; t <= to; t += MINUTE) {
    const key = oracleKey(timezone, t);
    minutes.push({ t, key });
    if (!first.has(key)) first.set(key, t);
  }
  assert.ok((minutes[0]?.key ?? '') < wallKey(day, 0), 'scan starts before the day');
  assert.ok((minutes[minutes.length - 1]?.key ?? '') > wallKey(day, 1440), 'scan ends after the day');
  const scan = { first, minutes };
  scans.set(id, scan);
  return scan;
}

/** Earliest instant whose wall time is `key` or later: first occurrence, or the end of a gap. */
function atOrAfter(scan: Scan, key: string): number {
  const hit = scan.minutes.find((m) => m.key >= key);
  assert.ok(hit, `scan does not reach ${key}`);
  return hit.t;
}

function mergedIntervals(intervals: readonly LocalInterval[]): { start: number; end: number }[] {
  const sorted = intervals.map((i) => ({ start: minutesOf(i.start), end: minutesOf(i.end) }));
  sorted.sort((a, b) => a.start - b.start);
  const merged: { start: number; end: number }[] = [];
  for (const i of sorted) {
    const last = merged[merged.length - 1];
    if (last && i.start <= last.end) last.end = Math.max(last.end, i.end);
    else merged.push({ ...i });
  }
  return merged;
}

function effectiveIntervals(input: SlotInput): LocalInterval[] {
  const weekday = WEEKDAYS[new Date(`${input.day}T00:00:00Z`).getUTCDay()];
  return input.overrides[input.day] ?? (weekday ? input.weekly[weekday] : undefined) ?? [];
}

/** Half-open sets: an empty busy interval overlaps nothing. */
function overlaps(aStart: number, aEnd: number, b: Interval): boolean {
  const bStart = b.start.getTime();
  const bEnd = b.end.getTime();
  return bStart < bEnd && aStart < bEnd && bStart < aEnd;
}

/** Brute-force restatement of the rules, with no shortcuts (no early exit, no sweep). */
function reference(input: SlotInput): string[] {
  const { timezone, settings, day } = input;
  const now = input.now.getTime();
  const ahead = dayNumber(day) - dayNumber(oracleKey(timezone, now).slice(0, 10));
  if (ahead < 0 || (settings.maxDaysAhead !== null && ahead > settings.maxDaysAhead)) return [];
  const scan = scanDay(timezone, day);
  const duration = settings.durationMinutes * MINUTE;
  const buffer = settings.bufferMinutes * MINUTE;
  const grid: { start: number; end: number }[] = [];
  let lastEnd = Number.NEGATIVE_INFINITY;
  for (const range of mergedIntervals(effectiveIntervals(input))) {
    const rangeEnd = atOrAfter(scan, wallKey(day, range.end));
    for (let m = range.start; m < range.end; m += settings.durationMinutes + settings.bufferMinutes) {
      const start = scan.first.get(wallKey(day, m));
      if (start === undefined) continue;
      if (start + duration > rangeEnd) continue;
      if (start < lastEnd + buffer) continue;
      grid.push({ start, end: start + duration });
      lastEnd = start + duration;
    }
  }
  return grid
    .filter((s) => s.start > now)
    .filter((s) => !input.busy.some((b) => overlaps(s.start - buffer, s.end + buffer, b)))
    .map((s) => new Date(s.start).toISOString());
}

const localInterval: fc.Arbitrary<LocalInterval> = fc
  .tuple(
    // Bias towards the small hours, where the transitions are.
    fc.oneof(fc.integer({ min: 0, max: 1439 }), fc.integer({ min: 60, max: 240 })),
    fc.oneof(fc.integer({ min: 1, max: 1440 }), fc.integer({ min: 1, max: 180 })),
  )
  .map(([start, length]) => ({ start: hhmm(start), end: hhmm(Math.min(1440, start + length)) }));

const intervals = fc.array(localInterval, { maxLength: 4 });

const weekly: fc.Arbitrary<WeeklyRules> = fc.record(
  { mon: intervals, tue: intervals, wed: intervals, thu: intervals, fri: intervals, sat: intervals, sun: intervals },
  { requiredKeys: [] },
);

const day = fc.oneof(
  fc
    .tuple(fc.constantFrom(...TRANSITION_DAYS), fc.integer({ min: -1, max: 1 }))
    .map(([d, shift]) => dayFromNumber(dayNumber(d) + shift)),
  fc.integer({ min: 0, max: 364 }).map((n) => dayFromNumber(dayNumber('2026-01-01') + n)),
);

const scenario = fc
  .record({
    timezone: fc.constantFrom(...ZONES),
    day,
    weekly,
    override: fc.option(intervals, { freq: 3 }),
    otherOverride: fc.option(intervals, { freq: 2 }),
    duration: fc.oneof(fc.integer({ min: 5, max: 180 }), fc.constantFrom(15, 30, 45, 60, 90)),
    buffer: fc.oneof(fc.integer({ min: 0, max: 60 }), fc.constant(0)),
    maxDaysAhead: fc.option(fc.integer({ min: 0, max: 3 }), { freq: 3 }),
    // Minutes relative to the host day's start.
    busy: fc.array(fc.tuple(fc.integer({ min: -180, max: 1620 }), fc.integer({ min: 0, max: 240 })), { maxLength: 8 }),
    now: fc.oneof(fc.integer({ min: -3 * 1440, max: 1500 }), fc.integer({ min: -1440, max: 0 })),
  })
  .map((s): SlotInput => {
    const window = hostDayWindow(s.day, s.timezone);
    const base = window.start.getTime();
    const overrides: Overrides = {};
    if (s.override !== null) overrides[s.day] = s.override;
    if (s.otherOverride !== null) overrides[dayFromNumber(dayNumber(s.day) + 1)] = s.otherOverride;
    return {
      weekly: s.weekly,
      overrides,
      timezone: s.timezone,
      settings: { durationMinutes: s.duration, bufferMinutes: s.buffer, maxDaysAhead: s.maxDaysAhead },
      busy: s.busy.map(([offset, length]) => ({
        start: new Date(base + offset * MINUTE),
        end: new Date(base + (offset + length) * MINUTE),
      })),
      now: new Date(base + s.now * MINUTE),
      day: s.day,
    };
  });

test('every slot satisfies the contract', () => {
  let withSlots = 0;
  fc.assert(
    fc.property(scenario, (input) => {
      const { timezone, day, settings } = input;
      const slots = computeSlots(input);
      if (slots.length > 0) withSlots++;
      const scan = scanDay(timezone, day);
      const window = hostDayWindow(day, timezone);
      assert.equal(window.start.getTime(), atOrAfter(scan, wallKey(day, 0)), 'day window start');
      assert.equal(window.end.getTime(), atOrAfter(scan, wallKey(day, 1440)), 'day window end');

      const merged = mergedIntervals(effectiveIntervals(input));
      const duration = settings.durationMinutes * MINUTE;
      const buffer = settings.bufferMinutes * MINUTE;
      const { day: _day, ...withoutDay } = input;
      let previous: Interval | undefined;
      for (const slot of slots) {
        const start = slot.start.getTime();
        const end = slot.end.getTime();
        const wall = oracleKey(timezone, start);
        assert.equal(end - start, duration, 'duration');
        assert.equal(wall.slice(0, 10), day, 'start on the requested host-local day');
        assert.ok(start > input.now.getTime(), 'not started');
        assert.ok(start >= window.start.getTime() && end <= window.end.getTime(), 'inside the day window');
        const inside = merged.some(
          (r) =>
            wall >= wallKey(day, r.start) &&
            wall < wallKey(day, r.end) &&
            start >= atOrAfter(scan, wallKey(day, r.start)) &&
            end <= atOrAfter(scan, wallKey(day, r.end)),
        );
        assert.ok(inside, `slot ${wall} inside an availability interval (wall and absolute)`);
        for (const b of input.busy) assert.ok(!overlaps(start - buffer, end + buffer, b), 'clear of busy with buffer');
        if (previous) assert.ok(start >= previous.end.getTime() + buffer, 'ordered and buffered');
        previous = slot;

        assert.equal(isOfferedSlot(withoutDay, slot), true, 'isOfferedSlot');
        for (const shift of [-MINUTE, MINUTE]) {
          const shifted = { start: new Date(start + shift), end: new Date(end + shift) };
          assert.equal(isOfferedSlot(withoutDay, shifted), false, 'shifted slot is not offered');
        }
      }
      if (slots.length > 0) {
        const ahead = dayNumber(day) - dayNumber(oracleKey(timezone, input.now.getTime()).slice(0, 10));
        assert.ok(ahead >= 0 && (settings.maxDaysAhead === null || ahead <= settings.maxDaysAhead), 'max days ahead');
      }
    }),
    { numRuns: NUM_RUNS },
  );
  // Guards against a generator that only ever produces empty days.
  assert.ok(withSlots > NUM_RUNS / 4, `only ${withSlots} of ${NUM_RUNS} runs produced slots`);
});

test('slots equal a brute-force reference of the rules', () => {
  fc.assert(
    fc.property(scenario, (input) => {
      assert.deepEqual(
        computeSlots(input).map((s) => s.start.toISOString()),
        reference(input),
      );
    }),
    { numRuns: NUM_RUNS },
  );
});
