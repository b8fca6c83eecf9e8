import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { formatInTimeZone } from 'date-fns-tz';
import { computeSlots, hostDayWindow, isOfferedSlot, type SlotInput } from '../../lib/slots/slots';

// Expected values are worked out by hand from the 2026 transitions below; date-fns-tz serves as an independent
// reference for the transitions and for the local wall time of every produced slot.

type Transition = { at: string; fromMinutes: number; toMinutes: number };
type Fixture = {
  day: string;
  start: string;
  end: string;
  duration: number;
  buffer?: number;
  /** UTC slot starts, "HH:MM" when on `day` in UTC, else a full ISO string. */
  expected: string[];
};
type Zone = {
  timezone: string;
  transitions: Transition[];
  days: { day: string; windowStart: string; hours: number }[];
  fixtures: Fixture[];
};

const ZONES: Zone[] = [
  {
    timezone: 'America/New_York',
    transitions: [
      { at: '2026-03-08T07:00:00Z', fromMinutes: -300, toMinutes: -240 },
      { at: '2026-11-01T06:00:00Z', fromMinutes: -240, toMinutes: -300 },
    ],
    days: [
      { day: '2026-03-08', windowStart: '2026-03-08T05:00:00Z', hours: 23 },
      { day: '2026-11-01', windowStart: '2026-11-01T04:00:00Z', hours: 25 },
      { day: '2026-03-09', windowStart: '2026-03-09T04:00:00Z', hours: 24 },
    ],
    fixtures: [
      // 02:00 and 02:30 do not exist.
      { day: '2026-03-08', start: '01:00', end: '04:00', duration: 30, expected: ['06:00', '06:30', '07:00', '07:30'] },
      { day: '2026-03-08', start: '01:00', end: '04:00', duration: 60, expected: ['06:00', '07:00'] },
      // 01:30 EST + 30 minutes is 03:00 EDT, exactly the interval end; 60 minutes overrun it.
      { day: '2026-03-08', start: '01:30', end: '03:00', duration: 30, expected: ['06:30'] },
      { day: '2026-03-08', start: '01:30', end: '03:00', duration: 60, expected: [] },
      // The end time 02:30 does not exist; it maps to 03:00 EDT = 07:00Z.
      { day: '2026-03-08', start: '01:00', end: '02:30', duration: 30, expected: ['06:00', '06:30'] },
      { day: '2026-03-08', start: '02:00', end: '02:59', duration: 5, expected: [] },
      // Grid 00:00, 01:30, 03:00, 04:30: 03:00 EDT (07:00Z) would overlap the 01:30 EST slot (06:30-08:00Z).
      { day: '2026-03-08', start: '00:00', end: '06:00', duration: 90, expected: ['05:00', '06:30', '08:30'] },
      // Same grid; 03:00 EDT would start 30 minutes after the 01:30 slot ends, less than the 30-minute buffer...
      {
        day: '2026-03-08',
        start: '00:00',
        end: '06:00',
        duration: 60,
        buffer: 30,
        expected: ['05:00', '06:30', '08:30'],
      },
      // ...or, without any overlap, 10 minutes after it ends with a 70-minute buffer.
      {
        day: '2026-03-08',
        start: '00:00',
        end: '06:00',
        duration: 20,
        buffer: 70,
        expected: ['05:00', '06:30', '08:30'],
      },
      // 01:00-02:00 happens twice; each wall time is offered at its first (EDT) occurrence only.
      {
        day: '2026-11-01',
        start: '01:00',
        end: '04:00',
        duration: 30,
        expected: ['05:00', '05:30', '07:00', '07:30', '08:00', '08:30'],
      },
      { day: '2026-11-01', start: '01:00', end: '04:00', duration: 60, expected: ['05:00', '07:00', '08:00'] },
      // The ambiguous end 01:30 is its first occurrence (05:30Z), so a 60-minute slot at 01:00 EDT does not fit.
      { day: '2026-11-01', start: '00:00', end: '01:30', duration: 60, expected: ['04:00'] },
      // 02:00 is unambiguous (07:00Z): the interval 01:00-02:00 lasts two absolute hours but holds one grid step.
      { day: '2026-11-01', start: '01:00', end: '02:00', duration: 60, expected: ['05:00'] },
      { day: '2026-11-01', start: '01:00', end: '02:00', duration: 30, expected: ['05:00', '05:30'] },
    ],
  },
  {
    timezone: 'Europe/Berlin',
    transitions: [
      { at: '2026-03-29T01:00:00Z', fromMinutes: 60, toMinutes: 120 },
      { at: '2026-10-25T01:00:00Z', fromMinutes: 120, toMinutes: 60 },
    ],
    days: [
      { day: '2026-03-29', windowStart: '2026-03-28T23:00:00Z', hours: 23 },
      { day: '2026-10-25', windowStart: '2026-10-24T22:00:00Z', hours: 25 },
      { day: '2026-06-15', windowStart: '2026-06-14T22:00:00Z', hours: 24 },
    ],
    fixtures: [
      { day: '2026-03-29', start: '01:00', end: '04:00', duration: 30, expected: ['00:00', '00:30', '01:00', '01:30'] },
      { day: '2026-03-29', start: '01:00', end: '04:00', duration: 60, expected: ['00:00', '01:00'] },
      {
        day: '2026-10-25',
        start: '01:00',
        end: '04:00',
        duration: 30,
        expected: ['2026-10-24T23:00:00.000Z', '2026-10-24T23:30:00.000Z', '00:00', '00:30', '02:00', '02:30'],
      },
      {
        day: '2026-10-25',
        start: '01:00',
        end: '04:00',
        duration: 60,
        expected: ['2026-10-24T23:00:00.000Z', '00:00', '02:00'],
      },
    ],
  },
  {
    timezone: 'Australia/Sydney',
    transitions: [
      { at: '2026-04-04T16:00:00Z', fromMinutes: 660, toMinutes: 600 },
      { at: '2026-10-03T16:00:00Z', fromMinutes: 600, toMinutes: 660 },
    ],
    days: [
      { day: '2026-04-05', windowStart: '2026-04-04T13:00:00Z', hours: 25 },
      { day: '2026-10-04', windowStart: '2026-10-03T14:00:00Z', hours: 23 },
      { day: '2026-07-01', windowStart: '2026-06-30T14:00:00Z', hours: 24 },
    ],
    fixtures: [
      // Southern hemisphere: back in April (02:00-03:00 twice)...
      {
        day: '2026-04-05',
        start: '01:00',
        end: '04:00',
        duration: 30,
        expected: [
          '2026-04-04T14:00:00.000Z',
          '2026-04-04T14:30:00.000Z',
          '2026-04-04T15:00:00.000Z',
          '2026-04-04T15:30:00.000Z',
          '2026-04-04T17:00:00.000Z',
          '2026-04-04T17:30:00.000Z',
        ],
      },
      // ...forward in October (02:00-03:00 missing).
      {
        day: '2026-10-04',
        start: '01:00',
        end: '04:00',
        duration: 30,
        expected: [
          '2026-10-03T15:00:00.000Z',
          '2026-10-03T15:30:00.000Z',
          '2026-10-03T16:00:00.000Z',
          '2026-10-03T16:30:00.000Z',
        ],
      },
    ],
  },
  {
    timezone: 'America/St_Johns',
    transitions: [
      { at: '2026-03-08T05:30:00Z', fromMinutes: -210, toMinutes: -150 },
      { at: '2026-11-01T04:30:00Z', fromMinutes: -150, toMinutes: -210 },
    ],
    days: [
      { day: '2026-03-08', windowStart: '2026-03-08T03:30:00Z', hours: 23 },
      { day: '2026-11-01', windowStart: '2026-11-01T02:30:00Z', hours: 25 },
      { day: '2026-01-15', windowStart: '2026-01-15T03:30:00Z', hours: 24 },
    ],
    fixtures: [
      { day: '2026-03-08', start: '01:00', end: '04:00', duration: 30, expected: ['04:30', '05:00', '05:30', '06:00'] },
      {
        day: '2026-11-01',
        start: '01:00',
        end: '04:00',
        duration: 30,
        expected: ['03:30', '04:00', '05:30', '06:00', '06:30', '07:00'],
      },
      { day: '2026-01-15', start: '09:00', end: '11:00', duration: 60, expected: ['12:30', '13:30'] },
    ],
  },
  {
    timezone: 'Pacific/Chatham',
    transitions: [
      { at: '2026-04-04T14:00:00Z', fromMinutes: 825, toMinutes: 765 },
      { at: '2026-09-26T14:00:00Z', fromMinutes: 765, toMinutes: 825 },
    ],
    days: [
      { day: '2026-04-05', windowStart: '2026-04-04T10:15:00Z', hours: 25 },
      { day: '2026-09-27', windowStart: '2026-09-26T11:15:00Z', hours: 23 },
      { day: '2026-06-01', windowStart: '2026-05-31T11:15:00Z', hours: 24 },
    ],
    fixtures: [
      // 02:45-03:45 repeats: 02:45-03:30 are offered at their +13:45 occurrence, 03:45 exists once (+12:45).
      {
        day: '2026-04-05',
        start: '02:00',
        end: '05:00',
        duration: 15,
        expected: [
          '2026-04-04T12:15:00.000Z',
          '2026-04-04T12:30:00.000Z',
          '2026-04-04T12:45:00.000Z',
          '2026-04-04T13:00:00.000Z',
          '2026-04-04T13:15:00.000Z',
          '2026-04-04T13:30:00.000Z',
          '2026-04-04T13:45:00.000Z',
          '2026-04-04T15:00:00.000Z',
          '2026-04-04T15:15:00.000Z',
          '2026-04-04T15:30:00.000Z',
          '2026-04-04T15:45:00.000Z',
          '2026-04-04T16:00:00.000Z',
        ],
      },
      // 02:45-03:45 is missing: 02:45, 03:00, 03:15, 03:30 are skipped.
      {
        day: '2026-09-27',
        start: '02:00',
        end: '05:00',
        duration: 15,
        expected: [
          '2026-09-26T13:15:00.000Z',
          '2026-09-26T13:30:00.000Z',
          '2026-09-26T13:45:00.000Z',
          '2026-09-26T14:00:00.000Z',
          '2026-09-26T14:15:00.000Z',
          '2026-09-26T14:30:00.000Z',
          '2026-09-26T14:45:00.000Z',
          '2026-09-26T15:00:00.000Z',
        ],
      },
      // 02:30 +12:45 plus 30 minutes is 04:00 +13:45, exactly the interval end.
      {
        day: '2026-09-27',
        start: '01:00',
        end: '04:00',
        duration: 30,
        expected: [
          '2026-09-26T12:15:00.000Z',
          '2026-09-26T12:45:00.000Z',
          '2026-09-26T13:15:00.000Z',
          '2026-09-26T13:45:00.000Z',
        ],
      },
    ],
  },
  {
    timezone: 'Asia/Kolkata',
    transitions: [],
    days: [
      { day: '2026-03-08', windowStart: '2026-03-07T18:30:00Z', hours: 24 },
      { day: '2026-11-01', windowStart: '2026-10-31T18:30:00Z', hours: 24 },
    ],
    fixtures: [
      { day: '2026-03-08', start: '09:00', end: '11:00', duration: 60, expected: ['03:30', '04:30'] },
      {
        day: '2026-03-08',
        start: '00:00',
        end: '01:00',
        duration: 30,
        expected: ['2026-03-07T18:30:00.000Z', '2026-03-07T19:00:00.000Z'],
      },
    ],
  },
  {
    timezone: 'Asia/Kathmandu',
    transitions: [],
    days: [{ day: '2026-03-29', windowStart: '2026-03-28T18:15:00Z', hours: 24 }],
    fixtures: [
      { day: '2026-03-29', start: '09:00', end: '11:00', duration: 60, expected: ['03:15', '04:15'] },
      { day: '2026-03-29', start: '09:00', end: '10:00', duration: 20, buffer: 5, expected: ['03:15', '03:40'] },
    ],
  },
  {
    timezone: 'Asia/Tokyo',
    transitions: [],
    days: [
      { day: '2026-03-08', windowStart: '2026-03-07T15:00:00Z', hours: 24 },
      { day: '2026-11-01', windowStart: '2026-10-31T15:00:00Z', hours: 24 },
    ],
    fixtures: [
      {
        day: '2026-11-01',
        start: '01:00',
        end: '04:00',
        duration: 60,
        expected: ['2026-10-31T16:00:00.000Z', '2026-10-31T17:00:00.000Z', '2026-10-31T18:00:00.000Z'],
      },
    ],
  },
  {
    timezone: 'UTC',
    transitions: [],
    days: [{ day: '2026-03-29', windowStart: '2026-03-29T00:00:00Z', hours: 24 }],
    fixtures: [
      { day: '2026-03-29', start: '01:00', end: '04:00', duration: 60, expected: ['01:00', '02:00', '03:00'] },
    ],
  },
];

function input(timezone: string, day: string, start: string, end: string, duration: number, buffer = 0): SlotInput {
  return {
    weekly: {},
    overrides: { [day]: [{ start, end }] },
    timezone,
    settings: { durationMinutes: duration, bufferMinutes: buffer, maxDaysAhead: null },
    busy: [],
    now: new Date('2026-01-01T00:00:00Z'),
    day,
  };
}

function expand(day: string, expected: string[]): string[] {
  return expected.map((e) => (e.length === 5 ? `${day}T${e}:00.000Z` : e));
}

/** date-fns-tz's getTimezoneOffset treats the Date's fields as wall time in the zone, so it is off near transitions. */
function offsetMinutes(timezone: string, instant: number): number {
  const m = /^([+-])(\d{2}):(\d{2})$/.exec(formatInTimeZone(new Date(instant), timezone, 'xxx'));
  assert.ok(m, `offset of ${timezone}`);
  return (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]));
}

/** Offsets must only change at the listed instants during 2026 (sampled every 6 hours, then checked to the ms). */
function assertTransitions(timezone: string, transitions: Transition[]): void {
  const found: string[] = [];
  const from = Date.UTC(2026, 0, 1);
  const to = Date.UTC(2027, 0, 1);
  const step = 6 * 3_600_000;
  let previous = offsetMinutes(timezone, from);
  for (let t = from + step; t <= to; t += step) {
    const offset = offsetMinutes(timezone, t);
    if (offset !== previous) found.push(new Date(t).toISOString());
    previous = offset;
  }
  assert.equal(found.length, transitions.length, `transitions of ${timezone}: ${found.join(', ')}`);
  for (const { at, fromMinutes, toMinutes } of transitions) {
    const instant = new Date(at).getTime();
    assert.equal(offsetMinutes(timezone, instant - 1), fromMinutes, `${timezone} before ${at}`);
    assert.equal(offsetMinutes(timezone, instant), toMinutes, `${timezone} at ${at}`);
  }
}

for (const zone of ZONES) {
  const { timezone } = zone;
  describe(timezone, () => {
    test('2026 offset transitions are the ones the fixtures assume', () => {
      assertTransitions(timezone, zone.transitions);
    });

    test('day windows', () => {
      for (const { day, windowStart, hours } of zone.days) {
        const w = hostDayWindow(day, timezone);
        assert.equal(w.start.toISOString(), new Date(windowStart).toISOString(), `${day} start`);
        assert.equal((w.end.getTime() - w.start.getTime()) / 3_600_000, hours, `${day} length`);
        assert.equal(formatInTimeZone(w.start, timezone, 'yyyy-MM-dd'), day);
        assert.notEqual(formatInTimeZone(new Date(w.start.getTime() - 1), timezone, 'yyyy-MM-dd'), day);
        assert.notEqual(formatInTimeZone(w.end, timezone, 'yyyy-MM-dd'), day);
      }
    });

    for (const f of zone.fixtures) {
      const label = `${f.day} ${f.start}-${f.end}, ${f.duration} min${f.buffer ? ` + ${f.buffer} buffer` : ''}`;
      test(label, () => {
        const slotInput = input(timezone, f.day, f.start, f.end, f.duration, f.buffer);
        const slots = computeSlots(slotInput);
        assert.deepEqual(
          slots.map((s) => s.start.toISOString()),
          expand(f.day, f.expected),
        );
        const { day: _day, ...withoutDay } = slotInput;
        for (const slot of slots) {
          assert.equal(slot.end.getTime() - slot.start.getTime(), f.duration * 60_000);
          const wall = formatInTimeZone(slot.start, timezone, 'yyyy-MM-dd HH:mm');
          assert.ok(wall >= `${f.day} ${f.start}` && wall < `${f.day} ${f.end}`, `${wall} outside ${label}`);
          assert.equal(isOfferedSlot(withoutDay, slot), true);
        }
      });
    }

    test('a full day 00:00-24:00 skips the missing hour and offers a repeated hour once', () => {
      for (const { day, hours } of zone.days) {
        const slots = computeSlots(input(timezone, day, '00:00', '24:00', 30));
        const w = hostDayWindow(day, timezone);
        // One slot per existing half hour of wall time; a repeated hour adds none.
        assert.equal(slots.length, Math.min(hours, 24) * 2, day);
        const first = slots[0];
        const last = slots[slots.length - 1];
        assert.ok(first && last);
        assert.equal(first.start.getTime(), w.start.getTime());
        assert.ok(last.end.getTime() <= w.end.getTime());
        const walls = slots.map((s) => formatInTimeZone(s.start, timezone, 'yyyy-MM-dd HH:mm'));
        assert.equal(new Set(walls).size, walls.length, 'each wall time at most once');
        for (const wall of walls) assert.ok(wall.startsWith(day));
        for (const t of zone.transitions) {
          const at = new Date(t.at).getTime();
          const repeated = (t.fromMinutes - t.toMinutes) * 60_000;
          if (repeated <= 0) continue;
          // The second pass through the repeated hour gets no slots.
          const inRepeat = slots.filter((s) => s.start.getTime() >= at && s.start.getTime() < at + repeated);
          assert.deepEqual(inRepeat, [], `${day}: no slot in the repeated hour`);
        }
      }
    });
  });
}
