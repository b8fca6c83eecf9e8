// listSlots: GET /booking-pages/{slug}/slots (spec: TimeSlot, Endpoints, Booking status; README).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { BACKENDS, startServer, type TestServer } from '../helpers/server';
import {
  apiDocumentWith,
  assertError,
  assertStatus,
  BERLIN,
  call,
  createBooking,
  dayGrid,
  type Host,
  host,
  hostDay,
  hostTime,
  listSlots,
  NEW_YORK,
  SLOT_TS,
  type Slot,
  slotAt,
} from './_client';

const BAD_DATE = '`date` must be YYYY-MM-DD or an ISO 8601 timestamp';
const MISSING_DATE = 'Missing required `date` query param (YYYY-MM-DD)';

const starts = (slots: Slot[]) => slots.map((slot) => slot.start);
const without = (slots: Slot[], ...removed: Slot[]) =>
  slots.filter((slot) => !removed.some((r) => r.start === slot.start));

/** The wall-clock hour and minute of an instant in a zone, "HH:MM". */
function wallTime(iso: string, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(
    new Date(iso),
  );
}

for (const backend of BACKENDS) {
  describe(`API slots on ${backend}`, () => {
    let server: TestServer;
    let ada: Host;
    let bob: Host;
    let secret: string;
    let publishable: string;

    const busyDay = hostDay(NEW_YORK, 12);
    const busy = [slotAt(busyDay, '14:00', 60), slotAt(busyDay, '10:10', 10)];

    before(async () => {
      const document = apiDocumentWith({
        adaBusy: busy.map((event, i) => ({ start: event.start, end: event.end, title: `Busy ${i}` })),
        adaPages: [
          { slug: 'today-only', title: 'Today only', duration_minutes: 30, max_days_ahead: 0 },
          { slug: 'unlimited', title: 'No horizon', duration_minutes: 30, max_days_ahead: null },
        ],
      });
      server = await startServer(backend, document);
      ada = host(server, 'ada');
      bob = host(server, 'bob');
      secret = ada.key('secret');
      publishable = ada.key('publishable');
    });
    after(() => server?.stop());

    test('a free day: { data: [{ start, end }] }, Z timestamps, in order, 30 min each, 09:00-17:00 New York', async () => {
      const day = hostDay(NEW_YORK, 7);
      for (const [key, keyHeader] of [
        [publishable, 'bearer'],
        [secret, 'x-service-key'],
      ] as const) {
        const response = await call<{ data: Slot[] }>(server, 'GET', `/booking-pages/intro/slots?date=${day}`, {
          key,
          keyHeader,
        });
        assertStatus(response, 200);
        assert.deepEqual(Object.keys(response.body), ['data']);
        const slots = response.body.data;
        assert.equal(slots.length, 16, 'sixteen 30-minute slots in 09:00-17:00');
        for (const slot of slots) {
          assert.deepEqual(Object.keys(slot).sort(), ['end', 'start']);
          assert.match(slot.start, SLOT_TS);
          assert.match(slot.end, SLOT_TS);
          assert.equal(Date.parse(slot.end) - Date.parse(slot.start), 30 * 60_000, 'duration_minutes long');
          const from = wallTime(slot.start, NEW_YORK);
          const to = wallTime(slot.end, NEW_YORK);
          assert.ok(from >= '09:00' && to <= '17:00' && from < to, `${slot.start} inside 09:00-17:00 New York`);
        }
        for (let i = 1; i < slots.length; i++) {
          assert.ok(Date.parse(slots[i - 1]?.start ?? '') < Date.parse(slots[i]?.start ?? ''), 'start order');
        }
        assert.deepEqual(slots, dayGrid(day, 30));
      }
    });

    test("the day is the host's calendar day: bob's intro in Berlin, 20-minute slots", async () => {
      const day = hostDay(BERLIN, 7);
      const slots = await listSlots(server, bob.key('publishable'), 'intro', day);
      assert.equal(slots.length, 24);
      assert.deepEqual(slots, dayGrid(day, 20, 0, BERLIN));
    });

    test('date as an ISO 8601 timestamp means the host day containing that instant', async () => {
      const day = hostDay(NEW_YORK, 8);
      const expected = dayGrid(day, 30);
      const noon = hostTime(day, '12:00', NEW_YORK);
      const lateEvening = hostTime(day, '22:30', NEW_YORK); // the next day in UTC
      const earlyMorning = hostTime(day, '00:30', NEW_YORK);
      const tokyo = (instant: Date) =>
        `${new Date(instant.getTime() + 9 * 3_600_000).toISOString().slice(0, 19)}+09:00`;
      const dates = [
        noon.toISOString(),
        lateEvening.toISOString(),
        earlyMorning.toISOString(),
        lateEvening.toISOString().replace('.000Z', 'Z'),
        tokyo(earlyMorning), // the same instant written in +09:00, where it is already the afternoon
        tokyo(lateEvening), // in +09:00 this is the next calendar day
      ];
      for (const date of dates) {
        const slots = await listSlots(server, publishable, 'intro', encodeURIComponent(date));
        assert.deepEqual(slots, expected, `date=${date}`);
      }
    });

    test('400 for a missing or malformed date', async () => {
      assertError(await call(server, 'GET', '/booking-pages/intro/slots', { key: publishable }), 400, MISSING_DATE);
      for (const date of ['2026-02-30', 'tomorrow', '2026-13-01', '20260301', '2026-1-5', '2026-02-30T10:00:00Z']) {
        const response = await call(server, 'GET', `/booking-pages/intro/slots?date=${encodeURIComponent(date)}`, {
          key: publishable,
        });
        assertError(response, 400, BAD_DATE, `date=${date}`);
      }
    });

    test('404 for an inactive page, an unknown slug and a slug of another account', async () => {
      const day = hostDay(NEW_YORK, 7);
      const cases: [string, string][] = [
        [publishable, 'inactive'],
        [secret, 'inactive'],
        [publishable, 'no-such-page'],
        [bob.key('publishable'), 'approval'],
        [bob.key('secret'), 'buffered'],
      ];
      for (const [key, slug] of cases) {
        const response = await call(server, 'GET', `/booking-pages/${slug}/slots?date=${day}`, { key });
        assertError(response, 404, 'Booking page not found', slug);
      }
    });

    test('past days offer nothing; today only slots that have not started', async () => {
      for (const offset of [-1, -30]) {
        assert.deepEqual(await listSlots(server, publishable, 'intro', hostDay(NEW_YORK, offset)), [], `day ${offset}`);
      }
      const now = Date.now();
      const today = await listSlots(server, publishable, 'intro', hostDay(NEW_YORK, 0));
      const expected = dayGrid(hostDay(NEW_YORK, 0), 30).filter((slot) => Date.parse(slot.start) > now + 5_000);
      for (const slot of today) assert.ok(Date.parse(slot.start) > now - 5_000, `${slot.start} has not started`);
      // Slots starting well after the request are all there (allowing a few seconds either way).
      for (const slot of expected) assert.ok(starts(today).includes(slot.start), `${slot.start} is offered today`);
    });

    test("days beyond the page's max_days_ahead offer nothing", async () => {
      // buffered: max_days_ahead 2 (host-local days after today).
      assert.deepEqual(await listSlots(server, publishable, 'buffered', hostDay(NEW_YORK, 3)), []);
      assert.deepEqual(await listSlots(server, publishable, 'buffered', hostDay(NEW_YORK, 30)), []);
      assert.ok((await listSlots(server, publishable, 'buffered', hostDay(NEW_YORK, 1))).length > 0, 'day 1');
      assert.ok((await listSlots(server, publishable, 'buffered', hostDay(NEW_YORK, 2))).length > 0, 'day 2');
      // intro: max_days_ahead 60.
      assert.equal((await listSlots(server, publishable, 'intro', hostDay(NEW_YORK, 60))).length, 16, 'day 60');
      assert.deepEqual(await listSlots(server, publishable, 'intro', hostDay(NEW_YORK, 61)), [], 'day 61');
    });

    test('max_days_ahead 0 means today only, null means no limit (README)', async () => {
      assert.deepEqual(await listSlots(server, publishable, 'today-only', hostDay(NEW_YORK, 1)), []);
      const now = Date.now();
      const today = await listSlots(server, publishable, 'today-only', hostDay(NEW_YORK, 0));
      const expected = dayGrid(hostDay(NEW_YORK, 0), 30).filter((slot) => Date.parse(slot.start) > now + 5_000);
      for (const slot of expected) assert.ok(starts(today).includes(slot.start), `${slot.start} is offered today`);
      const far = hostDay(NEW_YORK, 400);
      assert.deepEqual(await listSlots(server, publishable, 'unlimited', far), dayGrid(far, 30));
    });

    test('consecutive slots keep the buffer gap (15 minutes on buffered)', async () => {
      const day = hostDay(NEW_YORK, 1);
      const slots = await listSlots(server, secret, 'buffered', day);
      assert.deepEqual(slots, dayGrid(day, 30, 15));
      assert.equal(slots.length, 11);
      for (let i = 1; i < slots.length; i++) {
        const gap = Date.parse(slots[i]?.start ?? '') - Date.parse(slots[i - 1]?.end ?? '');
        assert.equal(gap, 15 * 60_000, 'a 15-minute gap between consecutive slots');
      }
    });

    test('a confirmed booking removes the overlapping slots and cancelling it gives them back', async () => {
      const day = hostDay(NEW_YORK, 10);
      const grid = dayGrid(day, 30);
      const ten = slotAt(day, '10:00', 30);
      const booking = await createBooking(server, secret, {
        bookingPageId: ada.page('intro').id,
        startTime: ten.start,
        endTime: ten.end,
      });
      assert.equal(booking.status, 'confirmed');
      assert.deepEqual(await listSlots(server, publishable, 'intro', day), without(grid, ten));

      // A booking that is not on the grid blocks every slot it overlaps.
      const odd = slotAt(day, '11:15', 30);
      const oddBooking = await createBooking(server, secret, {
        bookingPageId: ada.page('intro').id,
        startTime: odd.start,
        endTime: odd.end,
      });
      const eleven = slotAt(day, '11:00', 30);
      const elevenThirty = slotAt(day, '11:30', 30);
      assert.deepEqual(await listSlots(server, publishable, 'intro', day), without(grid, ten, eleven, elevenThirty));

      const cancelled = await call(server, 'DELETE', `/bookings/${booking.id}`, { key: secret });
      assertStatus(cancelled, 200, 'cancel');
      assert.deepEqual(await listSlots(server, publishable, 'intro', day), without(grid, eleven, elevenThirty));
      const patched = await call(server, 'PATCH', `/bookings/${oddBooking.id}`, {
        key: secret,
        json: { status: 'cancelled', reason: 'moved' },
      });
      assertStatus(patched, 200, 'cancel by PATCH');
      assert.deepEqual(await listSlots(server, publishable, 'intro', day), grid);
    });

    test("synced calendar events block the slots they overlap; other hosts' days are unaffected", async () => {
      const grid = dayGrid(busyDay, 30);
      const blocked = ['10:00', '14:00', '14:30'].map((time) => slotAt(busyDay, time, 30));
      assert.deepEqual(await listSlots(server, publishable, 'intro', busyDay), without(grid, ...blocked));
      assert.deepEqual(
        await listSlots(server, publishable, 'approval', busyDay),
        without(dayGrid(busyDay, 60), slotAt(busyDay, '10:00', 60), slotAt(busyDay, '14:00', 60)),
      );
      assert.equal((await listSlots(server, bob.key('publishable'), 'intro', hostDay(BERLIN, 12))).length, 24);
    });

    test('a booking on another page of the same host blocks the slot too; other hosts are unaffected', async () => {
      const day = hostDay(NEW_YORK, 11);
      const grid = dayGrid(day, 30);
      const hour = slotAt(day, '13:00', 60);
      const pending = await createBooking(server, publishable, {
        bookingPageId: ada.page('approval').id,
        startTime: hour.start,
        endTime: hour.end,
      });
      assert.equal(pending.status, 'pending', 'a pending booking blocks as well');
      const blocked = [slotAt(day, '13:00', 30), slotAt(day, '13:30', 30)];
      assert.deepEqual(await listSlots(server, publishable, 'intro', day), without(grid, ...blocked));
      assert.deepEqual(
        starts(await listSlots(server, publishable, 'approval', day)),
        starts(without(dayGrid(day, 60), hour)),
      );
      // Bob's calendar is his own.
      const bobDay = hostDay(BERLIN, 11);
      assert.equal((await listSlots(server, bob.key('publishable'), 'intro', bobDay)).length, 24);

      const declined = await call(server, 'PATCH', `/bookings/${pending.id}`, {
        key: secret,
        json: { status: 'cancelled' },
      });
      assertStatus(declined, 200, 'decline');
      assert.deepEqual(await listSlots(server, publishable, 'intro', day), grid);
    });
  });
}
