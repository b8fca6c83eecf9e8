import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  computeSlots,
  hostDayWindow,
  hostLocalDay,
  type Interval,
  isOfferedSlot,
  isValidTimeZone,
  parseSlotDay,
  type SlotInput,
} from '../../lib/slots/slots';

// 2026-03-10 is a Tuesday; UTC keeps wall time equal to absolute time so these tests isolate the rules from DST.
const DAY = '2026-03-10';

function input(overrides: Partial<SlotInput> = {}): SlotInput {
  return {
    weekly: { tue: [{ start: '09:00', end: '11:00' }] },
    overrides: {},
    timezone: 'UTC',
    settings: { durationMinutes: 30, bufferMinutes: 0, maxDaysAhead: null },
    busy: [],
    now: new Date('2026-03-01T00:00:00Z'),
    day: DAY,
    ...overrides,
  };
}

function settings(durationMinutes: number, bufferMinutes = 0, maxDaysAhead: number | null = null) {
  return { durationMinutes, bufferMinutes, maxDaysAhead };
}

function at(iso: string): Date {
  return new Date(iso);
}

function busy(start: string, end: string): Interval {
  return { start: at(start), end: at(end) };
}

/** Start times as "HH:MM" in UTC, which is the wall time for timezone UTC. */
function starts(slots: Interval[]): string[] {
  return slots.map((s) => s.start.toISOString().slice(11, 16));
}

describe('availability of the day (rule 1)', () => {
  test('weekly rules of the weekday apply', () => {
    assert.deepEqual(starts(computeSlots(input())), ['09:00', '09:30', '10:00', '10:30']);
  });

  test('a weekday without rules has no slots', () => {
    assert.deepEqual(computeSlots(input({ day: '2026-03-11' })), []);
  });

  test('several intervals per weekday, given in any order', () => {
    const weekly = {
      tue: [
        { start: '13:00', end: '14:00' },
        { start: '09:00', end: '10:00' },
      ],
    };
    assert.deepEqual(starts(computeSlots(input({ weekly }))), ['09:00', '09:30', '13:00', '13:30']);
  });

  test('overlapping and adjacent intervals are merged before the grid is laid', () => {
    const weekly = {
      tue: [
        { start: '10:00', end: '11:00' },
        { start: '09:00', end: '10:00' },
        { start: '09:30', end: '10:30' },
      ],
    };
    // One grid 09:00-11:00 with 45-minute slots, not one grid per interval.
    assert.deepEqual(starts(computeSlots(input({ weekly, settings: settings(45) }))), ['09:00', '09:45']);
  });

  test('an override replaces the weekly rules of that date', () => {
    const slots = computeSlots(input({ overrides: { [DAY]: [{ start: '15:00', end: '16:00' }] } }));
    assert.deepEqual(starts(slots), ['15:00', '15:30']);
  });

  test('an empty override makes the day unavailable', () => {
    assert.deepEqual(computeSlots(input({ overrides: { [DAY]: [] } })), []);
  });

  test('an override adds availability on a day without weekly rules', () => {
    const slots = computeSlots(
      input({ day: '2026-03-11', overrides: { '2026-03-11': [{ start: '08:00', end: '09:00' }] } }),
    );
    assert.deepEqual(starts(slots), ['08:00', '08:30']);
  });

  test('an override of another date changes nothing', () => {
    const slots = computeSlots(input({ overrides: { '2026-03-17': [] } }));
    assert.equal(slots.length, 4);
  });

  test('the weekday is the one of the host-local date', () => {
    // In Tokyo, Tuesday 2026-03-10 00:00-02:00 is still Monday in UTC.
    const slots = computeSlots(input({ timezone: 'Asia/Tokyo', weekly: { tue: [{ start: '00:00', end: '02:00' }] } }));
    assert.deepEqual(
      slots.map((s) => s.start.toISOString()),
      ['2026-03-09T15:00:00.000Z', '2026-03-09T15:30:00.000Z', '2026-03-09T16:00:00.000Z', '2026-03-09T16:30:00.000Z'],
    );
  });

  test('"24:00" ends the interval at the next midnight', () => {
    const slots = computeSlots(input({ weekly: { tue: [{ start: '23:00', end: '24:00' }] } }));
    assert.deepEqual(
      slots.map((s) => [s.start.toISOString(), s.end.toISOString()]),
      [
        ['2026-03-10T23:00:00.000Z', '2026-03-10T23:30:00.000Z'],
        ['2026-03-10T23:30:00.000Z', '2026-03-11T00:00:00.000Z'],
      ],
    );
  });

  test('malformed intervals are rejected, not skipped', () => {
    for (const bad of [
      { start: '9:00', end: '10:00' },
      { start: '09:00', end: '24:30' },
      { start: '10:00', end: '10:00' },
      { start: '11:00', end: '10:00' },
      { start: '24:00', end: '24:00' },
    ]) {
      assert.throws(() => computeSlots(input({ weekly: { tue: [bad] } })), RangeError, JSON.stringify(bad));
    }
  });
});

describe('grid, duration and buffer (rules 2 and 3)', () => {
  test('slots are exactly duration long and must fit before the interval ends', () => {
    assert.deepEqual(starts(computeSlots(input({ settings: settings(60) }))), ['09:00', '10:00']);
    assert.deepEqual(starts(computeSlots(input({ settings: settings(50) }))), ['09:00', '09:50']);
    assert.deepEqual(computeSlots(input({ settings: settings(121) })), []);
    for (const slot of computeSlots(input({ settings: settings(50) }))) {
      assert.equal(slot.end.getTime() - slot.start.getTime(), 50 * 60_000);
    }
  });

  test('the grid steps by duration + buffer from the interval start', () => {
    const weekly = { tue: [{ start: '09:00', end: '12:00' }] };
    assert.deepEqual(starts(computeSlots(input({ weekly, settings: settings(30, 15) }))), [
      '09:00',
      '09:45',
      '10:30',
      '11:15',
    ]);
  });

  test('the grid is anchored at each interval start', () => {
    const weekly = {
      tue: [
        { start: '09:10', end: '10:00' },
        { start: '13:05', end: '14:00' },
      ],
    };
    assert.deepEqual(starts(computeSlots(input({ weekly, settings: settings(20) }))), [
      '09:10',
      '09:30',
      '13:05',
      '13:25',
    ]);
  });

  test('the buffer also separates slots of different intervals', () => {
    const weekly = {
      tue: [
        { start: '09:00', end: '09:30' },
        { start: '09:40', end: '11:00' },
      ],
    };
    // 09:40 is only 10 minutes after the 09:00 slot ends, so the next kept slot is 10:25.
    assert.deepEqual(starts(computeSlots(input({ weekly, settings: settings(30, 15) }))), ['09:00', '10:25']);
    assert.deepEqual(starts(computeSlots(input({ weekly, settings: settings(30, 10) }))), ['09:00', '09:40', '10:20']);
  });

  test('invalid settings are rejected', () => {
    for (const bad of [
      settings(0),
      settings(-5),
      settings(1.5),
      settings(30, -1),
      settings(30, 0.5),
      settings(30, 0, -1),
    ]) {
      assert.throws(() => computeSlots(input({ settings: bad })), RangeError, JSON.stringify(bad));
    }
  });

  test('invalid day, time zone or now are rejected', () => {
    assert.throws(() => computeSlots(input({ day: '2026-02-30' })), RangeError);
    assert.throws(() => computeSlots(input({ day: '2026-3-10' })), RangeError);
    assert.throws(() => computeSlots(input({ timezone: 'Mars/Olympus' })), RangeError);
    assert.throws(() => computeSlots(input({ now: new Date(Number.NaN) })), RangeError);
  });
});

describe('busy intervals (rule 4)', () => {
  test('a slot overlapping a busy interval is left out', () => {
    const slots = computeSlots(input({ busy: [busy('2026-03-10T09:10:00Z', '2026-03-10T09:20:00Z')] }));
    assert.deepEqual(starts(slots), ['09:30', '10:00', '10:30']);
  });

  test('back-to-back with a busy interval is allowed with buffer 0', () => {
    const slots = computeSlots(
      input({
        busy: [
          busy('2026-03-10T08:00:00Z', '2026-03-10T09:00:00Z'),
          busy('2026-03-10T10:00:00Z', '2026-03-10T10:30:00Z'),
        ],
      }),
    );
    assert.deepEqual(starts(slots), ['09:00', '09:30', '10:30']);
  });

  test('the buffer pads the slot on both sides against busy intervals', () => {
    const weekly = { tue: [{ start: '09:00', end: '12:00' }] };
    // Grid 09:00, 09:45, 10:30, 11:15 (30 + 15). A booking 10:00-10:15 blocks only 09:45 (padded 09:30-10:30):
    // 10:30 starts exactly one buffer after the booking ends, and 09:00 (padded to 09:45) ends before it starts.
    const slots = computeSlots(
      input({ weekly, settings: settings(30, 15), busy: [busy('2026-03-10T10:00:00Z', '2026-03-10T10:15:00Z')] }),
    );
    assert.deepEqual(starts(slots), ['09:00', '10:30', '11:15']);
  });

  test('a busy interval starting exactly one buffer after the slot ends does not block it', () => {
    const weekly = { tue: [{ start: '09:00', end: '09:30' }] };
    const free = computeSlots(
      input({ weekly, settings: settings(30, 15), busy: [busy('2026-03-10T09:45:00Z', '2026-03-10T10:00:00Z')] }),
    );
    assert.deepEqual(starts(free), ['09:00']);
    const blocked = computeSlots(
      input({ weekly, settings: settings(30, 15), busy: [busy('2026-03-10T09:44:00Z', '2026-03-10T10:00:00Z')] }),
    );
    assert.deepEqual(blocked, []);
  });

  test('busy intervals may be unsorted, overlapping, outside the day or empty', () => {
    const slots = computeSlots(
      input({
        busy: [
          busy('2026-03-10T10:40:00Z', '2026-03-10T10:50:00Z'),
          busy('2026-03-09T00:00:00Z', '2026-03-09T23:00:00Z'),
          busy('2026-03-10T09:05:00Z', '2026-03-10T09:15:00Z'),
          busy('2026-03-10T09:10:00Z', '2026-03-10T09:35:00Z'),
          busy('2026-03-10T10:05:00Z', '2026-03-10T10:05:00Z'),
          busy('2026-03-12T00:00:00Z', '2026-03-13T00:00:00Z'),
        ],
      }),
    );
    assert.deepEqual(starts(slots), ['10:00']);
  });

  test('a busy interval covering the whole day blocks everything', () => {
    const slots = computeSlots(input({ busy: [busy('2026-03-09T00:00:00Z', '2026-03-12T00:00:00Z')] }));
    assert.deepEqual(slots, []);
  });

  test('busy has no status: a cancelled booking the caller leaves out does not block', () => {
    const confirmed = busy('2026-03-10T09:00:00Z', '2026-03-10T09:30:00Z');
    assert.deepEqual(starts(computeSlots(input({ busy: [confirmed] }))), ['09:30', '10:00', '10:30']);
    assert.deepEqual(starts(computeSlots(input({ busy: [] }))), ['09:00', '09:30', '10:00', '10:30']);
  });

  test('many busy intervals are handled in one sweep', () => {
    const many: Interval[] = [];
    for (let i = 0; i < 20_000; i++) {
      const start = Date.UTC(2026, 2, 1) + i * 7 * 60_000;
      many.push({ start: new Date(start), end: new Date(start + 60_000) });
    }
    const t0 = performance.now();
    const slots = computeSlots(input({ busy: many.reverse() }));
    assert.ok(performance.now() - t0 < 200);
    for (const slot of slots) {
      for (const b of many) assert.ok(!(slot.start < b.end && b.start < slot.end));
    }
  });
});

describe('started slots (rule 5)', () => {
  test('a slot starting exactly now is left out, one starting a millisecond later is kept', () => {
    assert.deepEqual(starts(computeSlots(input({ now: at('2026-03-10T09:00:00Z') }))), ['09:30', '10:00', '10:30']);
    assert.deepEqual(starts(computeSlots(input({ now: at('2026-03-10T08:59:59.999Z') }))), [
      '09:00',
      '09:30',
      '10:00',
      '10:30',
    ]);
  });

  test('a slot in progress is left out', () => {
    assert.deepEqual(starts(computeSlots(input({ now: at('2026-03-10T10:10:00Z') }))), ['10:30']);
  });

  test('the grid does not move with now', () => {
    const weekly = { tue: [{ start: '09:00', end: '12:00' }] };
    const slots = computeSlots(input({ weekly, settings: settings(30, 15), now: at('2026-03-10T09:01:00Z') }));
    assert.deepEqual(starts(slots), ['09:45', '10:30', '11:15']);
  });
});

describe('max_days_ahead (rule 6)', () => {
  const now = at('2026-03-10T05:00:00Z');

  test('0 offers today only', () => {
    assert.equal(computeSlots(input({ now, settings: settings(30, 0, 0) })).length, 4);
    assert.deepEqual(computeSlots(input({ now, day: '2026-03-17', settings: settings(30, 0, 0) })), []);
    assert.deepEqual(
      computeSlots(
        input({
          now,
          day: '2026-03-11',
          settings: settings(30, 0, 0),
          weekly: { wed: [{ start: '09:00', end: '10:00' }] },
        }),
      ),
      [],
    );
  });

  test('the last offered day is today + maxDaysAhead', () => {
    // 2026-03-17 is the next Tuesday, 7 days ahead.
    assert.equal(computeSlots(input({ now, day: '2026-03-17', settings: settings(30, 0, 7) })).length, 4);
    assert.deepEqual(computeSlots(input({ now, day: '2026-03-17', settings: settings(30, 0, 6) })), []);
  });

  test('null means no limit', () => {
    assert.equal(computeSlots(input({ now, day: '2030-03-12', settings: settings(30, 0, null) })).length, 4);
  });

  test('past days have no slots, whatever the limit', () => {
    assert.deepEqual(computeSlots(input({ now, day: '2026-03-03', settings: settings(30, 0, null) })), []);
    assert.deepEqual(computeSlots(input({ now, day: '2026-03-03', settings: settings(30, 0, 100) })), []);
  });

  test('days are counted in the host time zone', () => {
    // 2026-03-10T03:00Z is still Monday 2026-03-09 23:00 in New York: Tuesday is 1 day ahead there.
    const nyNow = at('2026-03-10T03:00:00Z');
    const ny = { timezone: 'America/New_York', now: nyNow };
    assert.deepEqual(computeSlots(input({ ...ny, settings: settings(30, 0, 0) })), []);
    assert.equal(computeSlots(input({ ...ny, settings: settings(30, 0, 1) })).length, 4);
    // Monday in New York is "today": its late slot is still offered with maxDaysAhead 0.
    const monday = computeSlots(
      input({
        ...ny,
        day: '2026-03-09',
        settings: settings(30, 0, 0),
        weekly: { mon: [{ start: '23:00', end: '24:00' }] },
      }),
    );
    assert.deepEqual(
      monday.map((s) => s.start.toISOString()),
      ['2026-03-10T03:30:00.000Z'],
    );
  });
});

describe('output (rule 7)', () => {
  test('slots are in start order without duplicates and on the requested day', () => {
    const weekly = {
      tue: [
        { start: '20:00', end: '24:00' },
        { start: '00:00', end: '03:00' },
        { start: '02:00', end: '05:00' },
      ],
    };
    const slots = computeSlots(input({ weekly, timezone: 'Asia/Kolkata', settings: settings(25, 5) }));
    assert.ok(slots.length > 0);
    for (let i = 1; i < slots.length; i++) {
      const prev = slots[i - 1];
      const cur = slots[i];
      assert.ok(prev && cur && prev.end.getTime() <= cur.start.getTime());
    }
    for (const slot of slots) assert.equal(hostLocalDay(slot.start, 'Asia/Kolkata'), DAY);
  });
});

describe('isOfferedSlot', () => {
  const base = input({ busy: [busy('2026-03-10T10:00:00Z', '2026-03-10T10:30:00Z')] });
  const { day: _day, ...withoutDay } = base;

  test('true for each offered slot', () => {
    const slots = computeSlots(base);
    assert.equal(slots.length, 3);
    for (const slot of slots) assert.equal(isOfferedSlot(withoutDay, slot), true);
  });

  test('false for shifted, resized, busy, past or out-of-range slots', () => {
    const slot = busy('2026-03-10T09:00:00Z', '2026-03-10T09:30:00Z');
    assert.equal(isOfferedSlot(withoutDay, busy('2026-03-10T09:01:00Z', '2026-03-10T09:31:00Z')), false);
    assert.equal(isOfferedSlot(withoutDay, busy('2026-03-10T09:00:00Z', '2026-03-10T09:31:00Z')), false);
    assert.equal(isOfferedSlot(withoutDay, busy('2026-03-10T10:00:00Z', '2026-03-10T10:30:00Z')), false);
    assert.equal(isOfferedSlot({ ...withoutDay, now: at('2026-03-10T09:00:00Z') }, slot), false);
    assert.equal(
      isOfferedSlot({ ...withoutDay, now: at('2026-03-01T00:00:00Z'), settings: settings(30, 0, 8) }, slot),
      false,
    );
    assert.equal(
      isOfferedSlot({ ...withoutDay, now: at('2026-03-01T00:00:00Z'), settings: settings(30, 0, 9) }, slot),
      true,
    );
    assert.equal(isOfferedSlot(withoutDay, { start: new Date(Number.NaN), end: new Date(Number.NaN) }), false);
  });
});

describe('parseSlotDay', () => {
  test('accepts real calendar dates as they are', () => {
    assert.equal(parseSlotDay('2026-03-08', 'America/New_York'), '2026-03-08');
    assert.equal(parseSlotDay('2024-02-29', 'UTC'), '2024-02-29');
    assert.equal(parseSlotDay('2026-12-31', 'Asia/Tokyo'), '2026-12-31');
  });

  test('rejects anything else', () => {
    for (const bad of [
      '',
      'tomorrow',
      '2026-02-30',
      '2025-02-29',
      '2100-02-29',
      '2026-13-01',
      '2026-00-10',
      '2026-04-31',
      '2026-1-1',
      '26-01-01',
      '2026/01/01',
      ' 2026-01-01',
      '2026-01-01 ',
      '2026-01-01T',
      '2026-01-01T10',
      '2026-01-01T10Z',
      '2026-01-01T24:00Z',
      '2026-01-01T10:60Z',
      '2026-01-01T10:00:60Z',
      '2026-01-01T10:00+24:00',
      '2026-01-01T10:00+05:60',
      '2026-01-01T10:00:00.Z',
      '2026-01-01 10:00:00Z',
      '2026-02-30T10:00:00Z',
      '0000-01-01',
      '1773532800000',
    ]) {
      assert.equal(parseSlotDay(bad, 'UTC'), null, JSON.stringify(bad));
    }
  });

  test('timestamps with Z or an offset give the host-local day containing that instant', () => {
    const ny = 'America/New_York';
    assert.equal(parseSlotDay('2026-03-08T10:00:00Z', ny), '2026-03-08');
    assert.equal(parseSlotDay('2026-03-08T03:00:00Z', ny), '2026-03-07');
    assert.equal(parseSlotDay('2026-03-08T10:00:00.000+05:30', ny), '2026-03-07');
    assert.equal(parseSlotDay('2026-03-08T10:00:00.000+05:30', 'Asia/Kolkata'), '2026-03-08');
    assert.equal(parseSlotDay('2026-03-08T23:30:00-05:00', 'Asia/Tokyo'), '2026-03-09');
    assert.equal(parseSlotDay('2026-03-08T10:00Z', ny), '2026-03-08');
    assert.equal(parseSlotDay('2026-03-08T04:59:59.999999999Z', ny), '2026-03-07');
    assert.equal(parseSlotDay('2026-03-08T05:00:00.000Z', ny), '2026-03-08');
    assert.equal(parseSlotDay('2026-03-08T05:00:00,5Z', ny), '2026-03-08');
    assert.equal(parseSlotDay('2026-03-08t05:00:00z', ny), '2026-03-08');
    assert.equal(parseSlotDay('2026-03-08T10:00:00+0530', ny), '2026-03-07');
    assert.equal(parseSlotDay('2026-03-08T10:00:00+05', ny), '2026-03-08');
    assert.equal(parseSlotDay('2026-12-31T23:30:00-01:00', 'UTC'), '2027-01-01');
  });

  test('timestamps without an offset are host-local wall time', () => {
    assert.equal(parseSlotDay('2026-03-08T10:00', 'America/New_York'), '2026-03-08');
    assert.equal(parseSlotDay('2026-03-08T23:59:59.5', 'Asia/Tokyo'), '2026-03-08');
    // 02:30 does not exist in New York that day; it still names that day.
    assert.equal(parseSlotDay('2026-03-08T02:30:00', 'America/New_York'), '2026-03-08');
  });
});

describe('hostDayWindow, hostLocalDay, isValidTimeZone', () => {
  const hours = (w: Interval) => (w.end.getTime() - w.start.getTime()) / 3_600_000;

  test('a day is 24, 23 or 25 hours long', () => {
    const normal = hostDayWindow('2026-03-10', 'America/New_York');
    assert.equal(normal.start.toISOString(), '2026-03-10T04:00:00.000Z');
    assert.equal(hours(normal), 24);
    const spring = hostDayWindow('2026-03-08', 'America/New_York');
    assert.equal(spring.start.toISOString(), '2026-03-08T05:00:00.000Z');
    assert.equal(hours(spring), 23);
    const fall = hostDayWindow('2026-11-01', 'America/New_York');
    assert.equal(fall.start.toISOString(), '2026-11-01T04:00:00.000Z');
    assert.equal(hours(fall), 25);
    assert.equal(hours(hostDayWindow('2026-03-10', 'UTC')), 24);
  });

  test('the window of one day ends where the next begins', () => {
    const a = hostDayWindow('2026-11-01', 'Australia/Sydney');
    const b = hostDayWindow('2026-11-02', 'Australia/Sydney');
    assert.equal(a.end.getTime(), b.start.getTime());
  });

  test('a day whose midnight is skipped starts when the gap ends', () => {
    // Chile springs forward at 24:00 on Saturday: Sunday 2026-09-06 has no 00:00.
    const w = hostDayWindow('2026-09-06', 'America/Santiago');
    assert.equal(w.start.toISOString(), '2026-09-06T04:00:00.000Z');
    assert.equal(hours(w), 23);
    assert.equal(hostLocalDay(w.start, 'America/Santiago'), '2026-09-06');
    assert.equal(hostLocalDay(new Date(w.start.getTime() - 1), 'America/Santiago'), '2026-09-05');
  });

  test('rejects an invalid day', () => {
    assert.throws(() => hostDayWindow('2026-02-30', 'UTC'), RangeError);
  });

  test('hostLocalDay is the calendar date in the zone', () => {
    const instant = at('2026-03-10T03:00:00Z');
    assert.equal(hostLocalDay(instant, 'America/New_York'), '2026-03-09');
    assert.equal(hostLocalDay(instant, 'Asia/Tokyo'), '2026-03-10');
    assert.equal(hostLocalDay(instant, 'UTC'), '2026-03-10');
    assert.equal(hostLocalDay(at('2026-03-09T14:59:59.999Z'), 'Asia/Tokyo'), '2026-03-09');
  });

  test('isValidTimeZone accepts IANA names only', () => {
    for (const tz of ['America/New_York', 'Europe/Berlin', 'Asia/Kathmandu', 'UTC', 'Etc/GMT+5']) {
      assert.equal(isValidTimeZone(tz), true, tz);
    }
    for (const tz of ['', 'Mars/Olympus', 'America/NewYork', '+05:30', '-03:00', 'GMT+25']) {
      assert.equal(isValidTimeZone(tz), false, tz);
    }
  });
});
