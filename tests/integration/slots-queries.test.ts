// Slots against the real database: listSlots, loadBusy and isSlotOffered read bookings, calendar events and
// availability overrides on PGlite and on Postgres, and loadBusy's range query is served by an index.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { getPageForBookingBySlug, type PageForBooking } from '../../lib/booking-pages/queries';
import type { Sql } from '../../lib/db/client';
import { ApiError } from '../../lib/http/errors';
import { type ImportResult, importDocument } from '../../lib/import/import';
import { loadBusy } from '../../lib/slots/queries';
import { isSlotOffered, listSlots, type TimeSlot } from '../../lib/slots/service';
import { hostDayWindow, type Interval } from '../../lib/slots/slots';
import { backends, type TestDb } from '../helpers/db';

const TZ = 'America/New_York';
// Every test day is in January 2030, when New York is on EST (UTC-05:00) all month: no DST inside the tests.
const EST = '-05:00';
const NOW = new Date('2029-12-31T12:00:00Z');
const DATE_MESSAGE = '`date` must be YYYY-MM-DD or an ISO 8601 timestamp';

const EVERY_DAY_9_TO_5 = Object.fromEntries(
  ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((day) => [day, [['09:00', '17:00']]]),
);

/** Page `intro` (30 min + 10 min buffer) steps 40 minutes from 09:00; 16:20-16:50 is the last slot before 17:00. */
const INTRO_DAY = '09:00 09:40 10:20 11:00 11:40 12:20 13:00 13:40 14:20 15:00 15:40 16:20'.split(' ');
/** Page `hour` (60 min, no buffer) steps an hour from 09:00. */
const HOUR_DAY = '09:00 10:00 11:00 12:00 13:00 14:00 15:00 16:00'.split(' ');

function document() {
  const host = (username: string) => ({
    email: `${username}@example.com`,
    username,
    timezone: TZ,
    availability: [{ name: 'Every day', weekly: EVERY_DAY_9_TO_5 }],
  });
  return {
    hosts: [
      {
        ...host('ada'),
        pages: [
          { slug: 'intro', title: 'Intro', duration_minutes: 30, buffer_time_minutes: 10, max_days_ahead: null },
          { slug: 'hour', title: 'Hour', duration_minutes: 60, buffer_time_minutes: 0, max_days_ahead: null },
        ],
      },
      {
        ...host('bob'),
        pages: [{ slug: 'intro', title: 'Bob', duration_minutes: 30, buffer_time_minutes: 10, max_days_ahead: null }],
      },
    ],
  };
}

/** "YYYY-MM-DD" + host-local "HH:MM" (January, EST) -> an instant. */
const at = (day: string, time: string) => new Date(`${day}T${time}:00${EST}`);

const localTime = new Intl.DateTimeFormat('en-GB', {
  timeZone: TZ,
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});
/** Slot starts as host-local "HH:MM", the readable form of a day's offer. */
const starts = (slots: TimeSlot[]) => slots.map((slot) => localTime.format(new Date(slot.start)));
const without = (all: string[], ...taken: string[]) => all.filter((time) => !taken.includes(time));

for (const backend of backends) {
  describe(`slot queries on ${backend.name}`, () => {
    let t: TestDb;
    let ada: ImportResult['hosts'][string];
    let bob: ImportResult['hosts'][string];
    let intro: PageForBooking;
    let hour: PageForBooking;
    let bobIntro: PageForBooking;

    before(async () => {
      t = await backend.open();
      const result = await t.db.transaction((tx) => importDocument(tx, document()));
      ada = result.hosts.ada as typeof ada;
      bob = result.hosts.bob as typeof bob;
      const page = async (host: typeof ada, slug: string) => {
        const found = await getPageForBookingBySlug(t.db, host.id, slug);
        assert.ok(found, slug);
        return found;
      };
      intro = await page(ada, 'intro');
      hour = await page(ada, 'hour');
      bobIntro = await page(bob, 'intro');
    });
    after(() => t?.drop());

    const book = (page: PageForBooking, start: Date, end: Date, status = 'confirmed') =>
      t.db.query(
        `insert into bookings (booking_page_id, user_id, guest_name, guest_email, start_time, end_time, status)
         values ($1, $2, 'Guest', 'guest@example.com', $3, $4, $5)`,
        [page.id, page.user_id, start, end, status],
      );
    const event = (host: typeof ada, start: Date, end: Date, kind = 'busy', cancelled = false) =>
      t.db.query(
        `insert into calendar_events (account_id, kind, start_time, end_time, cancelled_at)
         values ($1, $2, $3, $4, case when $5::boolean then now() end)`,
        [host.id, kind, start, end, cancelled],
      );
    const override = (page: PageForBooking, day: string, start: string | null, end: string | null) =>
      t.db.query(
        `insert into availability_overrides (availability_set_id, override_date, start_time, end_time)
         values ($1, $2, $3, $4)`,
        [page.availability_set_id, day, start, end],
      );
    const offered = async (page: PageForBooking, day: string, now = NOW) =>
      starts(await listSlots(t.db, page, day, now));

    test('an empty day offers the weekly grid: duration long, duration + buffer apart, in the host zone', async () => {
      const slots = await listSlots(t.db, intro, '2030-01-01', NOW);
      assert.deepEqual(starts(slots), INTRO_DAY);
      assert.deepEqual(slots[0], { start: '2030-01-01T14:00:00.000Z', end: '2030-01-01T14:30:00.000Z' });
      for (const slot of slots) assert.equal(Date.parse(slot.end) - Date.parse(slot.start), 30 * 60_000);
      assert.deepEqual(await offered(hour, '2030-01-01'), HOUR_DAY);
    });

    test('a pending and a confirmed booking remove the slots they overlap', async () => {
      const day = '2030-01-02';
      await book(intro, at(day, '10:20'), at(day, '10:50'), 'confirmed');
      await book(intro, at(day, '13:05'), at(day, '13:25'), 'pending');
      // 09:40-10:10 and 11:00-11:30 are exactly one buffer away from 10:20-10:50, so they stay.
      assert.deepEqual(await offered(intro, day), without(INTRO_DAY, '10:20', '13:00'));
      assert.equal((await loadBusy(t.db, ada.id, hostDayWindow(day, TZ))).length, 2);
    });

    test('a cancelled booking blocks nothing', async () => {
      const day = '2030-01-03';
      await book(intro, at(day, '10:20'), at(day, '10:50'), 'cancelled');
      await book(intro, at(day, '10:20'), at(day, '10:50'), 'cancelled');
      assert.deepEqual(await offered(intro, day), INTRO_DAY);
      assert.deepEqual(await loadBusy(t.db, ada.id, hostDayWindow(day, TZ)), []);
    });

    test('a booking on another page of the same host blocks', async () => {
      const day = '2030-01-04';
      await book(hour, at(day, '11:00'), at(day, '12:00'));
      assert.deepEqual(await offered(intro, day), without(INTRO_DAY, '11:00', '11:40'));
      assert.deepEqual(await offered(hour, day), without(HOUR_DAY, '11:00'));
    });

    test("another host's booking does not block", async () => {
      const day = '2030-01-05';
      await book(bobIntro, at(day, '10:20'), at(day, '10:50'));
      assert.deepEqual(await offered(intro, day), INTRO_DAY);
      assert.deepEqual(await offered(bobIntro, day), without(INTRO_DAY, '10:20'));
      assert.deepEqual(await loadBusy(t.db, ada.id, hostDayWindow(day, TZ)), []);
      assert.deepEqual(await loadBusy(t.db, bob.id, hostDayWindow(day, TZ)), [
        { start: at(day, '10:20'), end: at(day, '10:50'), source: 'booking' },
      ]);
    });

    test("busy calendar events block; cancelled ones, 'booking' ones and other hosts' do not", async () => {
      const day = '2030-01-06';
      await event(ada, at(day, '14:00'), at(day, '14:30'));
      await event(ada, at(day, '09:00'), at(day, '09:30'), 'busy', true);
      await event(ada, at(day, '15:00'), at(day, '15:30'), 'booking');
      await event(bob, at(day, '16:20'), at(day, '16:50'));
      // 14:00-14:30 overlaps 13:40-14:10 directly and 14:20-14:50 through the buffer.
      assert.deepEqual(await offered(intro, day), without(INTRO_DAY, '13:40', '14:20'));
      assert.deepEqual(await loadBusy(t.db, ada.id, hostDayWindow(day, TZ)), [
        { start: at(day, '14:00'), end: at(day, '14:30'), source: 'event' },
      ]);
    });

    test('the buffer keeps slots buffer minutes away from a booking; without a buffer back-to-back is fine', async () => {
      const day = '2030-01-07';
      // Overlaps no slot of `intro`, but lies within 10 minutes of 10:20-10:50 and of 11:00-11:30.
      await book(intro, at(day, '10:55'), at(day, '11:00'));
      assert.deepEqual(await offered(intro, day), without(INTRO_DAY, '10:20', '11:00'));
      // `hour` has no buffer: 10:00-11:00 overlaps the booking, 11:00-12:00 starts when it ends.
      assert.deepEqual(await offered(hour, day), without(HOUR_DAY, '10:00'));
    });

    test('the buffer reaches into the neighbouring host-local days', async () => {
      const day = '2030-01-09';
      await override(intro, day, '00:00', '02:00');
      await override(intro, day, '23:25', '24:00');
      assert.deepEqual(await offered(intro, day), ['00:00', '00:40', '01:20', '23:25']);
      // Both end up less than a buffer away from the day: 5 minutes before its midnight, and right at the next one.
      const before = { start: at('2030-01-08', '23:30'), end: at('2030-01-08', '23:55') };
      const next = { start: at('2030-01-10', '00:00'), end: at('2030-01-10', '00:30') };
      await book(intro, before.start, before.end);
      await book(intro, next.start, next.end, 'pending');
      assert.deepEqual(await offered(intro, day), ['00:40', '01:20']);
      // The host day alone misses them; widened by the buffer, as loadSlotInput asks, it finds them.
      const window = hostDayWindow(day, TZ);
      assert.deepEqual(await loadBusy(t.db, ada.id, window), []);
      const widened: Interval = {
        start: new Date(window.start.getTime() - 10 * 60_000),
        end: new Date(window.end.getTime() + 10 * 60_000),
      };
      const busy = await loadBusy(t.db, ada.id, widened);
      assert.deepEqual(
        busy.sort((a, b) => a.start.getTime() - b.start.getTime()),
        [
          { ...before, source: 'booking' },
          { ...next, source: 'booking' },
        ],
      );
    });

    test('an availability override replaces the weekly rules of its date only', async () => {
      await override(intro, '2030-01-12', null, null);
      assert.deepEqual(await offered(intro, '2030-01-12'), [], 'null times: unavailable all day');
      await override(intro, '2030-01-13', '14:00', '15:00');
      await override(intro, '2030-01-13', '10:00', '11:10');
      assert.deepEqual(await offered(intro, '2030-01-13'), ['10:00', '10:40', '14:00']);
      // Overrides belong to the availability set: `hour` uses the same set, so it follows them too.
      assert.deepEqual(await offered(hour, '2030-01-13'), ['10:00', '14:00']);
      assert.deepEqual(await offered(intro, '2030-01-14'), INTRO_DAY, 'the next day follows the weekly rules');
    });

    test('`date` takes an ISO timestamp as the host-local day containing it; anything else is a 400', async () => {
      // 03:00Z on the 15th is 22:00 on the 14th in New York.
      assert.deepEqual(
        await listSlots(t.db, intro, '2030-01-15T03:00:00Z', NOW),
        await listSlots(t.db, intro, '2030-01-14', NOW),
      );
      assert.deepEqual(
        await listSlots(t.db, intro, '2030-01-15T08:00:00+09:00', NOW),
        await listSlots(t.db, intro, '2030-01-14', NOW),
      );
      for (const bad of ['', 'tomorrow', '2030-02-30', '2030-1-5', '2030-01-15 10:00', '15/01/2030']) {
        await assert.rejects(
          listSlots(t.db, intro, bad, NOW),
          (error: unknown) => {
            assert.ok(error instanceof ApiError, String(error));
            assert.equal(error.status, 400);
            assert.equal(error.message, DATE_MESSAGE);
            return true;
          },
          JSON.stringify(bad),
        );
      }
    });

    test('slots that have started are left out', async () => {
      const day = '2030-01-16';
      assert.deepEqual(await offered(intro, day, at(day, '12:20')), without(INTRO_DAY, ...INTRO_DAY.slice(0, 6)));
      assert.deepEqual(await offered(intro, day, at(day, '12:19')), INTRO_DAY.slice(5));
    });

    test('isSlotOffered: true for an offered slot, false for a taken, shifted or resized one', async () => {
      const day = '2030-01-17';
      await book(intro, at(day, '10:20'), at(day, '10:50'), 'pending');
      const slot = (start: string, end: string): Interval => ({ start: at(day, start), end: at(day, end) });
      assert.equal(await isSlotOffered(t.db, intro, slot('09:00', '09:30'), NOW), true);
      assert.equal(await isSlotOffered(t.db, intro, slot('16:20', '16:50'), NOW), true);
      assert.equal(await isSlotOffered(t.db, intro, slot('10:20', '10:50'), NOW), false, 'taken');
      assert.equal(await isSlotOffered(t.db, intro, slot('09:05', '09:35'), NOW), false, 'shifted');
      assert.equal(await isSlotOffered(t.db, intro, slot('09:00', '10:00'), NOW), false, 'resized');
      assert.equal(await isSlotOffered(t.db, intro, slot('17:00', '17:30'), NOW), false, 'outside the hours');
      assert.equal(await isSlotOffered(t.db, intro, slot('09:00', '09:30'), at(day, '09:00')), false, 'started');
      // A slot offered on one page is not necessarily offered on another page of the host.
      assert.equal(await isSlotOffered(t.db, hour, slot('09:40', '10:40'), NOW), false, 'off the grid of `hour`');
      // Every slot listSlots offers is accepted.
      for (const offer of await listSlots(t.db, intro, day, NOW)) {
        const interval = { start: new Date(offer.start), end: new Date(offer.end) };
        assert.equal(await isSlotOffered(t.db, intro, interval, NOW), true, offer.start);
      }
    });

    test('the last day of the timestamp range gets its slots, not a database error', async () => {
      const day = '9999-12-31';
      assert.deepEqual(await offered(intro, day), INTRO_DAY);
      assert.equal(await isSlotOffered(t.db, intro, { start: at(day, '16:20'), end: at(day, '16:50') }, NOW), true);
    });

    test('loadBusy reads bookings through an index (EXPLAIN with thousands of bookings)', async () => {
      // 3,000 bookings of ada spread over 2031 (every 175 minutes, 30 long, a fifth cancelled), 1,000 of bob.
      const seed = (page: PageForBooking, count: number, every: number) =>
        t.db.query(
          `insert into bookings (booking_page_id, user_id, guest_name, guest_email, start_time, end_time, status)
           select $1, $2, 'Guest', 'guest' || i || '@example.com',
             timestamptz '2031-01-01T00:00:00Z' + make_interval(mins => i * $4),
             timestamptz '2031-01-01T00:00:00Z' + make_interval(mins => i * $4 + 30),
             (array['cancelled', 'pending', 'confirmed', 'confirmed', 'confirmed'])[i % 5 + 1]
           from generate_series(0, $3 - 1) as i`,
          [page.id, page.user_id, count, every],
        );
      await seed(intro, 3000, 175);
      await seed(bobIntro, 1000, 525);
      await t.db.exec('analyze bookings');

      // The query exactly as loadBusy sends it, captured on its way to the database.
      const sent: { text: string; params: readonly unknown[] }[] = [];
      const recording: Sql = {
        query: <T>(text: string, params?: readonly unknown[]) => {
          sent.push({ text, params: params ?? [] });
          return t.db.query<T>(text, params);
        },
        exec: (text: string) => t.db.exec(text),
      };
      const window = hostDayWindow('2031-06-15', TZ);
      const busy = await loadBusy(recording, ada.id, window);
      const query = sent[0];
      assert.ok(query && sent.length === 1);

      const expected = await t.db.query<{ n: number }>(
        `select count(*)::int as n from bookings where user_id = $1 and status in ('pending', 'confirmed')
           and start_time < $3 and end_time > $2`,
        [ada.id, window.start, window.end],
      );
      assert.ok(busy.length > 0);
      assert.equal(busy.length, expected.rows[0]?.n);

      const { rows } = await t.db.query<{ 'QUERY PLAN': string }>(`explain ${query.text}`, query.params);
      const plan = rows.map((row) => row['QUERY PLAN']).join('\n');
      assert.doesNotMatch(plan, /Seq Scan on bookings/, plan);
      assert.match(
        plan,
        /Index (Only )?Scan (Backward )?using \w+ on bookings\b|Bitmap Index Scan on bookings_\w+/,
        plan,
      );
    });
  });
}
