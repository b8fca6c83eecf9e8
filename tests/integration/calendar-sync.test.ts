// Busy-time sync on PGlite and Postgres: Google freeBusy (local stand-in) and an iCalendar feed (local HTTP server)
// become calendar_events busy rows that loadBusy / listSlots honour; a sync replaces, never duplicates; a failed
// sync records why and keeps the previous rows.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { after, before, describe, test } from 'node:test';
import { getPageForBookingBySlug, type PageForBooking } from '../../lib/booking-pages/queries';
import { saveGoogleConnection } from '../../lib/calendar/google';
import { addIcalConnection } from '../../lib/calendar/mutations';
import {
  MAX_FEED_BYTES,
  startCalendarSync,
  stopCalendarSync,
  syncAll,
  syncBusy,
  syncConnection,
} from '../../lib/calendar/sync';
import { importDocument } from '../../lib/import/import';
import { loadBusy } from '../../lib/slots/queries';
import { listSlots } from '../../lib/slots/service';
import { backends, type TestDb } from '../helpers/db';
import { type GoogleStandIn, googleEnv, startGoogleStandIn } from '../helpers/google-server';
import { freePort } from '../helpers/server';

const TZ = 'America/New_York';
// January 2030: New York is on EST (UTC-05:00) all month.
const NOW = new Date('2029-12-31T12:00:00Z');
const HORIZON_END = new Date(NOW.getTime() + 90 * 86_400_000);
const HOURS = '09:00 10:00 11:00 12:00 13:00 14:00 15:00 16:00'.split(' ');

const EVERY_DAY = Object.fromEntries(
  ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((day) => [day, [['09:00', '17:00']]]),
);

function document() {
  const host = (username: string) => ({
    email: `${username}@example.com`,
    username,
    timezone: TZ,
    availability: [{ name: 'Every day', weekly: EVERY_DAY }],
    pages: [{ slug: 'hour', title: 'Hour', duration_minutes: 60, buffer_time_minutes: 0, max_days_ahead: null }],
  });
  return {
    hosts: [
      {
        ...host('ada'),
        // Imported busy time has no connection: a sync never touches it.
        calendar_events: [{ start: '2030-01-20T15:00:00Z', end: '2030-01-20T16:00:00Z', title: 'Imported' }],
      },
      host('bob'),
    ],
  };
}

const FEED_EVENTS = {
  utc: ['UID:utc@test', 'SUMMARY:Dentist', 'DTSTART:20300107T150000Z', 'DTEND:20300107T160000Z'],
  berlin: ['UID:berlin@test', 'DTSTART;TZID=Europe/Berlin:20300107T200000', 'DTEND;TZID=Europe/Berlin:20300107T210000'],
  allDay: ['UID:allday@test', 'DTSTART;VALUE=DATE:20300108', 'DTEND;VALUE=DATE:20300109'],
  cancelled: ['UID:cancelled@test', 'STATUS:CANCELLED', 'DTSTART:20300109T150000Z', 'DTEND:20300109T160000Z'],
  transparent: ['UID:free@test', 'TRANSP:TRANSPARENT', 'DTSTART:20300109T170000Z', 'DTEND:20300109T180000Z'],
  weekly: [
    'UID:weekly@test',
    'DTSTART;TZID=America/New_York:20300110T090000',
    'DTEND;TZID=America/New_York:20300110T093000',
    'RRULE:FREQ=WEEKLY;COUNT=3',
    'EXDATE;TZID=America/New_York:20300117T090000',
  ],
  past: ['UID:past@test', 'DTSTART:20291201T150000Z', 'DTEND:20291201T160000Z'],
};

function ics(events: string[][]): string {
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Test//EN', 'X-WR-TIMEZONE:Europe/Berlin'];
  lines.push('BEGIN:VTIMEZONE', 'TZID:Europe/Berlin', 'END:VTIMEZONE');
  for (const event of events) lines.push('BEGIN:VEVENT', ...event, 'END:VEVENT');
  lines.push('END:VCALENDAR');
  return `${lines.join('\r\n')}\r\n`;
}

type Feed = { status: number; body: string | Buffer };
type FeedServer = { url: string; feeds: Map<string, Feed>; hits: Map<string, number>; close(): Promise<void> };

async function startFeedServer(): Promise<FeedServer> {
  const feeds = new Map<string, Feed>();
  const hits = new Map<string, number>();
  const server = http.createServer((request, response) => {
    const path = request.url ?? '/';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const feed = feeds.get(path);
    response.statusCode = feed?.status ?? 404;
    response.setHeader('content-type', 'text/calendar; charset=utf-8');
    response.end(feed?.body ?? 'not found');
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    feeds,
    hits,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** "YYYY-MM-DD" + New York "HH:MM" in January (EST). */
const ny = (day: string, time: string) => new Date(`${day}T${time}:00-05:00`);
const localTime = new Intl.DateTimeFormat('en-GB', {
  timeZone: TZ,
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});
const without = (...taken: string[]) => HOURS.filter((hour) => !taken.includes(hour));

let google: GoogleStandIn;
let feeds: FeedServer;
const saved: Record<string, string | undefined> = {};

before(async () => {
  [google, feeds] = await Promise.all([startGoogleStandIn(), startFeedServer()]);
  for (const [name, value] of Object.entries(googleEnv(google, randomBytes(32).toString('hex')))) {
    saved[name] = process.env[name];
    process.env[name] = value;
  }
});
after(async () => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  await Promise.all([google?.close(), feeds?.close()]);
});

for (const backend of backends) {
  describe(`calendar sync on ${backend.name}`, () => {
    let t: TestDb;
    let ada: string;
    let bob: string;
    let page: PageForBooking;
    let feedConnection: string;
    const feedPath = `/${backend.name}/calendar.ics`;
    const all = Object.values(FEED_EVENTS);

    before(async () => {
      t = await backend.open();
      const result = await t.db.transaction((tx) => importDocument(tx, document()));
      ada = result.hosts.ada?.id as string;
      bob = result.hosts.bob?.id as string;
      page = (await getPageForBookingBySlug(t.db, ada, 'hour')) as PageForBooking;
      feeds.feeds.set(feedPath, { status: 200, body: ics(all) });
      feedConnection = (await addIcalConnection(t.db, ada, `${feeds.url}${feedPath}`)).id;
    });
    after(() => t?.drop());

    const slots = async (day: string) =>
      (await listSlots(t.db, page, day, NOW)).map((slot) => localTime.format(new Date(slot.start)));

    const busyRows = async (connectionId: string) =>
      (
        await t.db.query<{ start_time: Date; end_time: Date; provider: string }>(
          `select start_time, end_time, provider from calendar_events
           where connection_id = $1 and kind = 'busy' order by start_time`,
          [connectionId],
        )
      ).rows.map((row) => `${new Date(row.start_time).toISOString()}/${new Date(row.end_time).toISOString()}`);

    const connectionState = async (id: string) =>
      (
        await t.db.query<{ last_synced_at: Date | null; sync_error: string | null }>(
          'select last_synced_at, sync_error from calendar_connections where id = $1',
          [id],
        )
      ).rows[0];

    const span = (start: Date, end: Date) => `${start.toISOString()}/${end.toISOString()}`;
    const EXPECTED_FEED = [
      span(ny('2030-01-07', '10:00'), ny('2030-01-07', '11:00')),
      span(ny('2030-01-07', '14:00'), ny('2030-01-07', '15:00')),
      span(ny('2030-01-08', '00:00'), ny('2030-01-09', '00:00')),
      span(ny('2030-01-10', '09:00'), ny('2030-01-10', '09:30')),
      span(ny('2030-01-24', '09:00'), ny('2030-01-24', '09:30')),
    ];

    test('an iCalendar feed becomes busy rows: TZID, all-day, recurring; cancelled and transparent skipped', async () => {
      assert.deepEqual(await slots('2030-01-07'), HOURS);
      const [result] = await syncBusy(t.db, ada, NOW);
      assert.equal(result?.ok, true, result?.error ?? '');
      assert.equal(result?.provider, 'ical');
      assert.equal(result?.source, new URL(feeds.url).host);
      assert.equal(result?.busy, 5);
      assert.deepEqual(await busyRows(feedConnection), EXPECTED_FEED);
      const state = await connectionState(feedConnection);
      assert.notEqual(state?.last_synced_at, null);
      assert.equal(state?.sync_error, null);
    });

    test('listSlots and loadBusy honour the synced rows', async () => {
      assert.deepEqual(await slots('2030-01-07'), without('10:00', '14:00'));
      assert.deepEqual(await slots('2030-01-08'), []);
      // Cancelled and transparent events leave the day free.
      assert.deepEqual(await slots('2030-01-09'), HOURS);
      assert.deepEqual(await slots('2030-01-10'), without('09:00'));
      // The EXDATE'd occurrence is free, the third one busy.
      assert.deepEqual(await slots('2030-01-17'), HOURS);
      assert.deepEqual(await slots('2030-01-24'), without('09:00'));
      const busy = await loadBusy(t.db, ada, { start: ny('2030-01-07', '00:00'), end: ny('2030-01-08', '00:00') });
      assert.equal(busy.length, 2);
      // Another host is not affected.
      const bobPage = (await getPageForBookingBySlug(t.db, bob, 'hour')) as PageForBooking;
      assert.equal((await listSlots(t.db, bobPage, '2030-01-08', NOW)).length, 8);
    });

    test('a second sync replaces the rows instead of adding to them', async () => {
      await syncBusy(t.db, ada, NOW);
      await syncBusy(t.db, ada, NOW);
      assert.deepEqual(await busyRows(feedConnection), EXPECTED_FEED);
      // The feed changes: the dentist appointment is gone, so its slot opens again.
      feeds.feeds.set(feedPath, { status: 200, body: ics(all.filter((event) => event !== FEED_EVENTS.utc)) });
      const [result] = await syncBusy(t.db, ada, NOW);
      assert.equal(result?.busy, 4);
      assert.deepEqual(await slots('2030-01-07'), without('14:00'));
      feeds.feeds.set(feedPath, { status: 200, body: ics(all) });
      await syncConnection(t.db, feedConnection, NOW);
      assert.deepEqual(await slots('2030-01-07'), without('10:00', '14:00'));
    });

    test('two syncs of one connection at once leave one set of rows', async () => {
      await Promise.all([syncConnection(t.db, feedConnection, NOW), syncConnection(t.db, feedConnection, NOW)]);
      assert.deepEqual(await busyRows(feedConnection), EXPECTED_FEED);
    });

    test('a failing feed records sync_error and keeps the previous rows', async () => {
      const before = await connectionState(feedConnection);
      feeds.feeds.set(feedPath, { status: 500, body: 'oops' });
      const [failed] = await syncBusy(t.db, ada, NOW);
      assert.equal(failed?.ok, false);
      assert.equal(failed?.busy, null);
      assert.equal(failed?.error, 'the feed answered HTTP 500');
      let state = await connectionState(feedConnection);
      assert.equal(state?.sync_error, 'the feed answered HTTP 500');
      assert.deepEqual(state?.last_synced_at, before?.last_synced_at);
      assert.deepEqual(await busyRows(feedConnection), EXPECTED_FEED);
      assert.deepEqual(await slots('2030-01-08'), []);

      for (const [body, message] of [
        ['<html>not a calendar</html>', /not an iCalendar file/],
        [Buffer.alloc(MAX_FEED_BYTES + 1, 'A'), /larger than 2 MB/],
      ] as const) {
        feeds.feeds.set(feedPath, { status: 200, body });
        const [result] = await syncBusy(t.db, ada, NOW);
        assert.match(result?.error ?? '', message);
        assert.deepEqual(await busyRows(feedConnection), EXPECTED_FEED);
      }
      // The error never shows the feed's path (feed URLs are often secret).
      assert.ok(!(await connectionState(feedConnection))?.sync_error?.includes(feedPath));

      feeds.feeds.set(feedPath, { status: 200, body: ics(all) });
      const [recovered] = await syncBusy(t.db, ada, NOW);
      assert.equal(recovered?.ok, true);
      state = await connectionState(feedConnection);
      assert.equal(state?.sync_error, null);
      assert.ok(new Date(state?.last_synced_at as Date) > new Date(before?.last_synced_at as Date));
    });

    test('Google freeBusy becomes busy rows for the Google connection, queried in chunks over the horizon', async () => {
      google.setBusy('primary', [
        // 11:00-12:30 New York on 9 January: the 11:00 and 12:00 slots.
        { start: '2030-01-09T16:00:00Z', end: '2030-01-09T17:30:00Z' },
        { start: '2029-11-01T10:00:00Z', end: '2029-11-01T11:00:00Z' },
      ]);
      const googleConnection = (
        await saveGoogleConnection(t.db, ada, { ...google.issueTokens(), expiresAt: new Date(Date.now() + 3_600_000) })
      ).id;
      const start = google.requests.length;
      const results = await syncBusy(t.db, ada, NOW);
      assert.deepEqual(
        results.map((r) => [r.provider, r.ok]),
        [
          ['ical', true],
          ['google', true],
        ],
      );
      const queries = google.requests.slice(start).filter((r) => r.path === '/calendar/v3/freeBusy');
      assert.equal(queries.length, 2);
      assert.equal(queries[0]?.body.timeMin, NOW.toISOString());
      assert.equal(queries.at(-1)?.body.timeMax, HORIZON_END.toISOString());
      assert.deepEqual(queries[0]?.body.items, [{ id: 'primary' }]);
      assert.deepEqual(await busyRows(googleConnection), [span(ny('2030-01-09', '11:00'), ny('2030-01-09', '12:30'))]);
      assert.deepEqual(await slots('2030-01-09'), without('11:00', '12:00'));

      // A failing freeBusy keeps the rows; the next success replaces them.
      google.failNextFreeBusy(503);
      const failed = await syncConnection(t.db, googleConnection, NOW);
      assert.equal(failed.error, 'Google freeBusy: HTTP 503 backendError');
      assert.equal((await busyRows(googleConnection)).length, 1);
      google.setBusy('primary', []);
      await syncConnection(t.db, googleConnection, NOW);
      assert.deepEqual(await busyRows(googleConnection), []);
      assert.deepEqual(await slots('2030-01-09'), HOURS);
    });

    test('syncAll runs every connection; imported busy time is left alone', async () => {
      const bobFeed = `/${backend.name}/bob.ics`;
      feeds.feeds.set(bobFeed, { status: 200, body: ics([FEED_EVENTS.utc]) });
      await addIcalConnection(t.db, bob, `${feeds.url}${bobFeed}`);
      const results = await syncAll(t.db, NOW);
      assert.equal(results.length, 3);
      assert.ok(results.every((result) => result.ok));
      const imported = await t.db.query<{ title: string }>(
        `select title from calendar_events where account_id = $1 and kind = 'busy' and connection_id is null`,
        [ada],
      );
      assert.deepEqual(
        imported.rows.map((row) => row.title),
        ['Imported'],
      );
      // Synced within the last half interval: skipped when only stale connections are asked for.
      assert.equal((await syncAll(t.db, NOW, { staleBefore: new Date(Date.now() - 60_000) })).length, 0);
    });

    test('removing a connection removes its busy rows', async () => {
      const extraPath = `/${backend.name}/extra.ics`;
      feeds.feeds.set(extraPath, { status: 200, body: ics([FEED_EVENTS.allDay]) });
      const added = await addIcalConnection(t.db, bob, `${feeds.url}${extraPath}`);
      assert.equal((await addIcalConnection(t.db, bob, `${feeds.url}${extraPath}`)).created, false);
      await syncConnection(t.db, added.id, NOW);
      assert.equal((await busyRows(added.id)).length, 1);
      await t.db.query('delete from calendar_connections where id = $1', [added.id]);
      assert.equal((await busyRows(added.id)).length, 0);
    });

    // Last: the runner syncs with the real clock, which moves the horizon away from the 2030 fixtures.
    test('the periodic runner starts once per process, syncs stale connections, and stops', async () => {
      const before = await connectionState(feedConnection);
      const previous = process.env.CALENDAR_SYNC_INTERVAL_MS;
      process.env.CALENDAR_SYNC_INTERVAL_MS = '1000';
      const key = Symbol.for('booking-service.calendar-sync');
      const g = globalThis as Record<symbol, unknown>;
      try {
        startCalendarSync(t.db);
        const timers = g[key];
        assert.ok(timers);
        startCalendarSync(t.db);
        assert.equal(g[key], timers);
        const deadline = Date.now() + 10_000;
        let after = before;
        while (Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 200));
          after = await connectionState(feedConnection);
          if (new Date(after?.last_synced_at as Date) > new Date(before?.last_synced_at as Date)) break;
        }
        assert.ok(new Date(after?.last_synced_at as Date) > new Date(before?.last_synced_at as Date));
        await stopCalendarSync();
        assert.equal(g[key], undefined);
        process.env.CALENDAR_SYNC_INTERVAL_MS = '0';
        startCalendarSync(t.db);
        assert.equal(g[key], undefined);
      } finally {
        await stopCalendarSync();
        if (previous === undefined) delete process.env.CALENDAR_SYNC_INTERVAL_MS;
        else process.env.CALENDAR_SYNC_INTERVAL_MS = previous;
      }
    });
  });
}
