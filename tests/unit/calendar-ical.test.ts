// The iCalendar busy-time parser: value forms, zones, all-day days, what does not block, recurrence expansion.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  type IcalTime,
  parseBusy,
  parseContentLine,
  parseDuration,
  parseRule,
  parseTimeValue,
  resolveZone,
  unfold,
} from '../../lib/calendar/ical-parse';
import { mergeIntervals, normalizeFeedUrl } from '../../lib/calendar/sync';

const HOST = 'America/New_York';
// January 2030: New York is on EST (UTC-05:00) all month.
const WINDOW = { timezone: HOST, from: new Date('2029-12-31T12:00:00Z'), to: new Date('2030-03-31T12:00:00Z') };

/** A feed around the given VEVENT bodies (lines joined with CRLF, as RFC 5545 wants). */
function feed(...events: string[][]): string {
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Test//EN'];
  for (const event of events) lines.push('BEGIN:VEVENT', ...event, 'END:VEVENT');
  lines.push('END:VCALENDAR');
  return `${lines.join('\r\n')}\r\n`;
}

/** Busy intervals as "start/end" ISO strings, sorted. */
function busy(text: string, options = WINDOW): string[] {
  return parseBusy(text, options)
    .busy.map((interval) => `${interval.start.toISOString()}/${interval.end.toISOString()}`)
    .sort();
}

const iso = (start: string, end: string) => `${new Date(start).toISOString()}/${new Date(end).toISOString()}`;

describe('content lines', () => {
  test('folded lines are joined; CRLF, LF and tab folds all work', () => {
    assert.deepEqual(unfold('SUMMARY:Hello\r\n  World\r\nDESCRIPTION:a\n\tb\nX:1'), [
      'SUMMARY:Hello World',
      'DESCRIPTION:ab',
      'X:1',
    ]);
  });

  test('parameters, quoted values with colons and semicolons, names in any case', () => {
    assert.deepEqual(parseContentLine('dtstart;tzid="Europe/Berlin";X-A="a:b;c":20300107T100000'), {
      name: 'DTSTART',
      params: { TZID: 'Europe/Berlin', 'X-A': 'a:b;c' },
      value: '20300107T100000',
    });
    assert.equal(parseContentLine('no colon here'), null);
  });

  test('durations', () => {
    assert.deepEqual(parseDuration('PT1H30M'), { days: 0, ms: 90 * 60_000 });
    assert.deepEqual(parseDuration('P1W'), { days: 7, ms: 0 });
    assert.deepEqual(parseDuration('P1DT2H'), { days: 1, ms: 2 * 3_600_000 });
    assert.deepEqual(parseDuration('-PT15M'), { days: -0, ms: -15 * 60_000 });
    assert.equal(parseDuration('P'), null);
    assert.equal(parseDuration('PT'), null);
    assert.equal(parseDuration('1H'), null);
  });
});

describe('time values and zones', () => {
  test('UTC, zoned, floating and DATE values', () => {
    assert.deepEqual(parseTimeValue('20300107T100000Z', {}, HOST), {
      kind: 'date-time',
      wall: Date.UTC(2030, 0, 7, 10),
      zone: 'UTC',
    });
    assert.deepEqual(parseTimeValue('20300107T100000', { TZID: 'Europe/Berlin' }, HOST), {
      kind: 'date-time',
      wall: Date.UTC(2030, 0, 7, 10),
      zone: 'Europe/Berlin',
    });
    assert.deepEqual(parseTimeValue('20300107T100000', {}, HOST), {
      kind: 'date-time',
      wall: Date.UTC(2030, 0, 7, 10),
      zone: HOST,
    });
    assert.deepEqual(parseTimeValue('20300107', { VALUE: 'DATE' }, HOST), { kind: 'date', wall: Date.UTC(2030, 0, 7) });
    for (const bad of ['20300230', '20300107T250000', '2030-01-07', '', 'tomorrow']) {
      assert.equal(parseTimeValue(bad, {}, HOST), null, bad);
    }
  });

  test('TZIDs: IANA names, vendor prefixes, Windows names; unknown ones fall back to the host zone with a note', () => {
    assert.equal(resolveZone('Europe/Berlin'), 'Europe/Berlin');
    assert.equal(resolveZone('/mozilla.org/20070129_1/Europe/Berlin'), 'Europe/Berlin');
    assert.equal(resolveZone('/softwarestudio.org/Olson_20011030_5/America/New_York'), 'America/New_York');
    assert.equal(resolveZone('W. Europe Standard Time'), 'Europe/Berlin');
    assert.equal(resolveZone('Pacific Standard Time'), 'America/Los_Angeles');
    assert.equal(resolveZone('Mars/Olympus_Mons'), null);
    const notes = new Set<string>();
    const time = parseTimeValue('20300107T100000', { TZID: 'Mars/Olympus_Mons' }, HOST, notes) as IcalTime;
    assert.equal(time.kind === 'date-time' && time.zone, HOST);
    assert.equal(notes.size, 1);
  });
});

describe('which events block', () => {
  test('UTC, TZID, Windows TZID and floating events become instants', () => {
    const text = feed(
      ['UID:utc', 'DTSTART:20300107T150000Z', 'DTEND:20300107T160000Z'],
      ['UID:berlin', 'DTSTART;TZID=Europe/Berlin:20300107T200000', 'DTEND;TZID=Europe/Berlin:20300107T210000'],
      ['UID:windows', 'DTSTART;TZID="Pacific Standard Time":20300108T090000', 'DURATION:PT45M'],
      ['UID:floating', 'DTSTART:20300109T090000', 'DTEND:20300109T100000'],
    );
    assert.deepEqual(busy(text), [
      iso('2030-01-07T15:00:00Z', '2030-01-07T16:00:00Z'),
      iso('2030-01-07T19:00:00Z', '2030-01-07T20:00:00Z'),
      iso('2030-01-08T17:00:00Z', '2030-01-08T17:45:00Z'),
      iso('2030-01-09T14:00:00Z', '2030-01-09T15:00:00Z'),
    ]);
  });

  test('all-day events are host-local days; a DATE without DTEND lasts one day', () => {
    const text = feed(
      ['UID:two-days', 'DTSTART;VALUE=DATE:20300108', 'DTEND;VALUE=DATE:20300110'],
      ['UID:one-day', 'DTSTART;VALUE=DATE:20300115'],
    );
    assert.deepEqual(busy(text), [
      iso('2030-01-08T05:00:00Z', '2030-01-10T05:00:00Z'),
      iso('2030-01-15T05:00:00Z', '2030-01-16T05:00:00Z'),
    ]);
    // The same feed for a host in Tokyo: the days are Tokyo days.
    assert.deepEqual(busy(text, { ...WINDOW, timezone: 'Asia/Tokyo' }), [
      iso('2030-01-07T15:00:00Z', '2030-01-09T15:00:00Z'),
      iso('2030-01-14T15:00:00Z', '2030-01-15T15:00:00Z'),
    ]);
  });

  test('cancelled, transparent, zero-length and unreadable events do not block; VALARM is ignored', () => {
    const text = feed(
      ['UID:cancelled', 'STATUS:CANCELLED', 'DTSTART:20300109T150000Z', 'DTEND:20300109T160000Z'],
      ['UID:free', 'TRANSP:TRANSPARENT', 'DTSTART:20300109T170000Z', 'DTEND:20300109T180000Z'],
      ['UID:point', 'DTSTART:20300109T190000Z'],
      ['UID:broken', 'DTSTART:tomorrow', 'DTEND:20300109T200000Z'],
      ['UID:backwards', 'DTSTART:20300109T210000Z', 'DTEND:20300109T200000Z'],
      [
        'UID:with-alarm',
        'DTSTART:20300110T150000Z',
        'DTEND:20300110T160000Z',
        'BEGIN:VALARM',
        'TRIGGER:-PT15M',
        'DTSTART:20300101T000000Z',
        'STATUS:CANCELLED',
        'END:VALARM',
      ],
    );
    assert.deepEqual(busy(text), [iso('2030-01-10T15:00:00Z', '2030-01-10T16:00:00Z')]);
  });

  test('only events overlapping the window are returned', () => {
    const text = feed(
      ['UID:past', 'DTSTART:20291201T150000Z', 'DTEND:20291201T160000Z'],
      ['UID:ongoing', 'DTSTART:20291231T110000Z', 'DTEND:20291231T130000Z'],
      ['UID:far', 'DTSTART:20300601T150000Z', 'DTEND:20300601T160000Z'],
    );
    assert.deepEqual(busy(text), [iso('2029-12-31T11:00:00Z', '2029-12-31T13:00:00Z')]);
  });

  test('a wall time inside a DST gap starts when the gap ends', () => {
    // 2030-03-10 02:30 does not exist in New York (clocks jump from 02:00 to 03:00 EDT = 07:00Z).
    const text = feed(['UID:gap', 'DTSTART;TZID=America/New_York:20300310T023000', 'DURATION:PT1H']);
    assert.deepEqual(busy(text), [iso('2030-03-10T07:00:00Z', '2030-03-10T08:00:00Z')]);
  });

  test('garbage, an empty feed and unbalanced components do not crash', () => {
    assert.deepEqual(busy(''), []);
    assert.deepEqual(busy('hello\nworld'), []);
    assert.deepEqual(busy('BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDTSTART:20300107T150000Z\r\nDTEND:20300107T160000Z'), []);
    assert.deepEqual(busy('BEGIN:VCALENDAR\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n'), []);
    assert.throws(() => busy('BEGIN:X\r\n'.repeat(100)), /nests components too deeply/);
  });
});

describe('recurrence', () => {
  const ny = (day: string, time: string, minutes = 30) => {
    const start = new Date(`${day}T${time}:00-05:00`);
    return `${start.toISOString()}/${new Date(start.getTime() + minutes * 60_000).toISOString()}`;
  };
  const event = (rule: string, ...extra: string[]) =>
    feed([
      'UID:r',
      'DTSTART;TZID=America/New_York:20300107T090000',
      'DTEND;TZID=America/New_York:20300107T093000',
      `RRULE:${rule}`,
      ...extra,
    ]);

  test('DAILY with COUNT, and with INTERVAL and UNTIL (inclusive)', () => {
    assert.deepEqual(busy(event('FREQ=DAILY;COUNT=3')), [
      ny('2030-01-07', '09:00'),
      ny('2030-01-08', '09:00'),
      ny('2030-01-09', '09:00'),
    ]);
    assert.deepEqual(busy(event('FREQ=DAILY;INTERVAL=2;UNTIL=20300111T140000Z')), [
      ny('2030-01-07', '09:00'),
      ny('2030-01-09', '09:00'),
      ny('2030-01-11', '09:00'),
    ]);
    assert.deepEqual(busy(event('FREQ=DAILY;UNTIL=20300108')), [ny('2030-01-07', '09:00'), ny('2030-01-08', '09:00')]);
  });

  test('WEEKLY with BYDAY, EXDATE and a DST change (the wall time stays 09:00)', () => {
    const text = event(
      'FREQ=WEEKLY;BYDAY=MO,WE;UNTIL=20300313T235959Z',
      'EXDATE;TZID=America/New_York:20300109T090000,20300114T090000',
    );
    const result = busy(text);
    assert.equal(result.length, 2 * 10 - 2);
    assert.ok(!result.includes(ny('2030-01-09', '09:00')));
    assert.ok(!result.includes(ny('2030-01-14', '09:00')));
    // After 2030-03-10 New York is on EDT (UTC-04:00): 09:00 is 13:00Z.
    assert.equal(result.at(-1), iso('2030-03-13T13:00:00Z', '2030-03-13T13:30:00Z'));
    assert.equal(result.at(-2), iso('2030-03-11T13:00:00Z', '2030-03-11T13:30:00Z'));
    assert.equal(result[0], ny('2030-01-07', '09:00'));
  });

  test('WEEKLY with INTERVAL=2 and COUNT', () => {
    assert.deepEqual(busy(event('FREQ=WEEKLY;INTERVAL=2;COUNT=3')), [
      ny('2030-01-07', '09:00'),
      ny('2030-01-21', '09:00'),
      ny('2030-02-04', '09:00'),
    ]);
  });

  test('MONTHLY: same day, BYMONTHDAY=-1, second Tuesday, last Friday', () => {
    assert.deepEqual(busy(event('FREQ=MONTHLY;COUNT=3')), [
      ny('2030-01-07', '09:00'),
      ny('2030-02-07', '09:00'),
      ny('2030-03-07', '09:00'),
    ]);
    // DTSTART itself always counts, even when it is not one of the rule's days.
    assert.deepEqual(busy(event('FREQ=MONTHLY;BYMONTHDAY=-1;COUNT=3')), [
      ny('2030-01-07', '09:00'),
      ny('2030-01-31', '09:00'),
      ny('2030-02-28', '09:00'),
    ]);
    assert.deepEqual(busy(event('FREQ=MONTHLY;BYDAY=2TU;COUNT=3')), [
      ny('2030-01-07', '09:00'),
      ny('2030-01-08', '09:00'),
      ny('2030-02-12', '09:00'),
    ]);
    assert.deepEqual(busy(event('FREQ=MONTHLY;BYDAY=-1FR;COUNT=3')), [
      ny('2030-01-07', '09:00'),
      ny('2030-01-25', '09:00'),
      ny('2030-02-22', '09:00'),
    ]);
  });

  test('YEARLY skips 29 February in common years; a long-running rule from years ago still expands', () => {
    const text = feed(['UID:leap', 'DTSTART;VALUE=DATE:20280229', 'RRULE:FREQ=YEARLY']);
    assert.deepEqual(busy(text, { ...WINDOW, to: new Date('2033-03-31T00:00:00Z') }), [
      iso('2032-02-29T05:00:00Z', '2032-03-01T05:00:00Z'),
    ]);
    const daily = feed(['UID:old', 'DTSTART:19900101T150000Z', 'DURATION:PT1H', 'RRULE:FREQ=DAILY']);
    const started = Date.now();
    const result = busy(daily, { ...WINDOW, to: new Date('2030-01-03T12:00:00Z') });
    assert.ok(Date.now() - started < 2000);
    assert.deepEqual(result, [
      iso('2029-12-31T15:00:00Z', '2029-12-31T16:00:00Z'),
      iso('2030-01-01T15:00:00Z', '2030-01-01T16:00:00Z'),
      iso('2030-01-02T15:00:00Z', '2030-01-02T16:00:00Z'),
    ]);
  });

  test('RECURRENCE-ID overrides move or cancel one occurrence; RDATE adds one', () => {
    const text = feed(
      [
        'UID:series',
        'DTSTART:20300107T140000Z',
        'DTEND:20300107T143000Z',
        'RRULE:FREQ=DAILY;COUNT=4',
        'RDATE:20300120T140000Z',
      ],
      ['UID:series', 'RECURRENCE-ID:20300108T140000Z', 'DTSTART:20300108T180000Z', 'DTEND:20300108T183000Z'],
      ['UID:series', 'RECURRENCE-ID:20300109T140000Z', 'STATUS:CANCELLED', 'DTSTART:20300109T140000Z'],
    );
    assert.deepEqual(busy(text), [
      iso('2030-01-07T14:00:00Z', '2030-01-07T14:30:00Z'),
      iso('2030-01-08T18:00:00Z', '2030-01-08T18:30:00Z'),
      iso('2030-01-10T14:00:00Z', '2030-01-10T14:30:00Z'),
      iso('2030-01-20T14:00:00Z', '2030-01-20T14:30:00Z'),
    ]);
  });

  test('rules this parser does not expand keep their first occurrence and add a note', () => {
    for (const rule of [
      'FREQ=MONTHLY;BYDAY=MO;BYSETPOS=1',
      'FREQ=HOURLY;COUNT=5',
      'FREQ=DAILY;BYHOUR=9,10',
      'garbage',
    ]) {
      assert.equal(parseRule(rule, HOST), null, rule);
      const result = parseBusy(event(rule), WINDOW);
      assert.deepEqual(
        result.busy.map((b) => b.start.toISOString()),
        ['2030-01-07T14:00:00.000Z'],
      );
      assert.equal(result.notes.length, 1);
    }
  });
});

describe('merging and feed URLs', () => {
  test('overlapping and touching intervals are joined', () => {
    const at = (h: number) => new Date(Date.UTC(2030, 0, 7, h));
    const merged = mergeIntervals([
      { start: at(14), end: at(15) },
      { start: at(9), end: at(10) },
      { start: at(10), end: at(11) },
      { start: at(14), end: at(14.5) },
      { start: at(16), end: at(17) },
    ]);
    assert.deepEqual(
      merged.map((m) => [m.start.getUTCHours(), m.end.getUTCHours()]),
      [
        [9, 11],
        [14, 15],
        [16, 17],
      ],
    );
  });

  test('feed URLs: http and https kept, webcal becomes https, anything else is refused', () => {
    assert.equal(normalizeFeedUrl(' https://example.com/a.ics '), 'https://example.com/a.ics');
    assert.equal(normalizeFeedUrl('webcal://p01.example.com/x/basic.ics'), 'https://p01.example.com/x/basic.ics');
    for (const bad of ['file:///etc/passwd', 'ftp://example.com/a.ics', 'javascript:alert(1)', 'not a url', '']) {
      assert.throws(() => normalizeFeedUrl(bad), /feed URL/);
    }
  });
});
