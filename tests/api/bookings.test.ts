// createBooking, listBookings, getBooking, updateBooking and cancelBooking (spec: Booking, States and transitions,
// Endpoints, Errors, Limits; README: "REST API: choices where the spec says 'not shown'").
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { BACKENDS, startServer, type TestServer } from '../helpers/server';
import {
  addMinutes,
  apiDocumentWith,
  assertBookingShape,
  assertError,
  assertStatus,
  awaitRoomInWindow,
  BERLIN,
  type Booking,
  type BookingDetail,
  bookingBody,
  call,
  createBooking,
  type Host,
  host,
  hostDay,
  hostTime,
  inBatches,
  listSlots,
  type MeetingResponse,
  missingScope,
  NEW_YORK,
  postBooking,
  rowTime,
  type Slot,
  sleep,
  slotAt,
  uniqueEmail,
} from './_client';

const NOT_AVAILABLE = 'This time slot is not available. Fetch the slots again and pick another.';
const TAKEN = 'This time slot is no longer available. Please pick another.';
const INVALID_JSON = 'Invalid JSON body';
const MISSING_FIELDS = 'Missing required fields: bookingPageId, guestName, guestEmail, startTime, endTime';
const BAD_EMAIL = '`guestEmail` must be a valid email address';
const BAD_TIMES = '`startTime` and `endTime` must be ISO 8601 timestamps, with `endTime` after `startTime`';
const BAD_RESPONSES = '`responses` must be an array of { questionId, answer }';
const FOREIGN_QUESTION = '`responses` must only answer questions of this booking page, each once';
const PAGE_NOT_FOUND = 'Booking page not found';
const NOT_OWNER = 'This booking page does not belong to the API key owner';
const TOO_MANY = 'Too many booking requests. Please try again later.';
const BAD_STATUS = '`status` must be "confirmed" or "cancelled"';
const BOOKING_NOT_FOUND = 'Booking not found';

const byQuestion = (responses: MeetingResponse[]) =>
  [...responses].sort((a, b) => a.question_id.localeCompare(b.question_id));

function assertLatestFirst(bookings: Booking[], context: string) {
  for (let i = 1; i < bookings.length; i++) {
    const previous = Date.parse(bookings[i - 1]?.start_time ?? '');
    const current = Date.parse(bookings[i]?.start_time ?? '');
    assert.ok(previous >= current, `${context}: latest start_time first (${i - 1}, ${i})`);
  }
}

for (const backend of BACKENDS) {
  describe(`API bookings on ${backend}`, () => {
    let server: TestServer;
    let ada: Host;
    let bob: Host;
    let secret: string;
    let publishable: string;
    let intro: string;
    let approval: string;

    const busyDay = hostDay(NEW_YORK, 20);
    const busy = slotAt(busyDay, '10:00', 60);

    before(async () => {
      const document = apiDocumentWith({
        adaBusy: [{ start: busy.start, end: busy.end, title: 'Dentist' }],
        adaPages: [
          {
            slug: 'approval-meet',
            title: 'Approval with a meeting link',
            duration_minutes: 30,
            booking_type: 'approval',
            auto_generate_meet_link: true,
          },
        ],
      });
      server = await startServer(backend, document);
      ada = host(server, 'ada');
      bob = host(server, 'bob');
      secret = ada.key('secret');
      publishable = ada.key('publishable');
      intro = ada.page('intro').id;
      approval = ada.page('approval').id;
    });
    after(() => server?.stop());

    const getBooking = async (id: string, key = secret) => {
      const response = await call<{ data: BookingDetail }>(server, 'GET', `/bookings/${id}`, { key });
      assertStatus(response, 200, `getBooking ${id}`);
      return response.body.data;
    };

    const listBookings = async (query = '', key = secret) => {
      const response = await call<{ data: Booking[] }>(server, 'GET', `/bookings${query}`, { key });
      assertStatus(response, 200, `listBookings ${query}`);
      assert.deepEqual(Object.keys(response.body), ['data']);
      return response.body.data;
    };

    /** Bookings of one guest address (case-insensitive), through the API. */
    const bookingsOf = async (email: string) =>
      (await listBookings('?limit=200')).filter((b) => b.guest_email.toLowerCase() === email.toLowerCase());

    /** Postgres only: rows of a guest address in bookings, and all meeting_responses rows. */
    const dbCounts = async (email: string) => {
      if (!server.sql) return undefined;
      const [row] = await server.sql<{ bookings: number; responses: number }>(
        `select (select count(*)::int from bookings where lower(guest_email) = lower($1)) as bookings,
                (select count(*)::int from meeting_responses) as responses`,
        [email],
      );
      return row;
    };

    /** Postgres only: the emails the service queued for a booking, as "kind to-address". */
    const emailsOf = async (bookingId: string) => {
      if (!server.sql) return undefined;
      const rows = await server.sql<{ kind: string; to_address: string }>(
        'select kind, to_address from email_outbox where booking_id = $1 order by created_at',
        [bookingId],
      );
      return rows.map((row) => `${row.kind} ${row.to_address.toLowerCase()}`);
    };
    const sentTo = (emails: string[], address: string) => emails.some((e) => e.endsWith(` ${address.toLowerCase()}`));

    // ---------------------------------------------------------------------------------------------------------
    // createBooking

    test('createBooking: 201 with the Booking of a direct page, confirmed, without meeting_responses', async () => {
      const day = hostDay(NEW_YORK, 7);
      const slots = await listSlots(server, publishable, 'intro', day);
      const slot = slots.find((s) => s.start === slotAt(day, '10:00', 30).start) as Slot;
      assert.ok(slot, 'the 10:00 slot is offered');
      const email = uniqueEmail('direct');
      const before = Date.now();
      const response = await call<{ data: Booking }>(server, 'POST', '/bookings', {
        key: publishable,
        json: {
          bookingPageId: intro,
          guestName: 'Grace Hopper',
          guestEmail: email,
          startTime: slot.start,
          endTime: slot.end,
        },
      });
      assertStatus(response, 201, 'createBooking');
      assert.deepEqual(Object.keys(response.body), ['data']);
      const booking = response.body.data;
      assertBookingShape(booking, 'created');
      assert.ok(!('meeting_responses' in booking), 'the 201 body has no meeting_responses');
      assert.equal(booking.booking_page_id, intro);
      assert.equal(booking.user_id, ada.id);
      assert.equal(booking.guest_name, 'Grace Hopper');
      assert.equal(booking.guest_email, email);
      assert.equal(booking.start_time, rowTime(slot.start));
      assert.equal(booking.end_time, rowTime(slot.end));
      assert.equal(booking.status, 'confirmed');
      assert.equal(booking.cancellation_reason, null);
      const created = Date.parse(booking.created_at);
      assert.ok(created >= before - 60_000 && created <= Date.now() + 60_000, 'created_at is now');
      // A direct page with meeting links: the event and its link exist at booking time.
      assert.ok(booking.ext_meet_link, 'ext_meet_link is set at booking time');
      assert.ok(booking.ext_calendar_event_id, 'ext_calendar_event_id is set at booking time');
      assert.equal(booking.sync_status, 'synced');
      // The guest gets a confirmation and the host is notified.
      const emails = await emailsOf(booking.id);
      if (emails) {
        assert.ok(sentTo(emails, email), `a confirmation to the guest: ${emails}`);
        assert.ok(sentTo(emails, 'ada@example.com'), `a notification to the host: ${emails}`);
      }

      // The detail shows the same row plus meeting_responses (none given: the API does not enforce required ones).
      const detail = await getBooking(booking.id);
      const { meeting_responses, ...row } = detail;
      assert.deepEqual(meeting_responses, []);
      assert.equal(row.id, booking.id);
      assert.equal(row.start_time, booking.start_time);
      assert.equal(row.status, 'confirmed');
      assert.ok(!starts(await listSlots(server, publishable, 'intro', day)).includes(slot.start), 'slot taken');
    });

    test('createBooking: an approval page starts as pending, not synced', async () => {
      const day = hostDay(NEW_YORK, 7);
      const slot = slotAt(day, '13:00', 60);
      assert.ok(starts(await listSlots(server, publishable, 'approval', day)).includes(slot.start));
      const booking = await createBooking(server, publishable, {
        bookingPageId: approval,
        startTime: slot.start,
        endTime: slot.end,
      });
      assertBookingShape(booking, 'pending');
      assert.ok(!('meeting_responses' in booking));
      assert.equal(booking.status, 'pending');
      assert.equal(booking.booking_page_id, approval);
      assert.equal(booking.start_time, rowTime(slot.start));
      assert.equal(booking.end_time, rowTime(slot.end));
      assert.equal(booking.sync_status, 'not_synced');
      assert.equal(booking.ext_meet_link, null);
      assert.equal(booking.ext_calendar_event_id, null);
      // The host gets a request; the guest is not notified until confirmed.
      const emails = await emailsOf(booking.id);
      if (emails) {
        assert.ok(sentTo(emails, 'ada@example.com'), `a request to the host: ${emails}`);
        assert.ok(!sentTo(emails, booking.guest_email), `nothing to the guest yet: ${emails}`);
      }
    });

    test('createBooking: a synced calendar event blocks a publishable key, not a secret one', async () => {
      const slot = slotAt(busyDay, '10:00', 30);
      assert.ok(!starts(await listSlots(server, publishable, 'intro', busyDay)).includes(slot.start), 'not offered');
      const refused = await postBooking(server, publishable, {
        bookingPageId: intro,
        startTime: slot.start,
        endTime: slot.end,
      });
      assertError(refused, 409, NOT_AVAILABLE, 'publishable over a busy event');
      // Rule 2: a secret key only needs the time free of pending and confirmed bookings.
      const booking = await createBooking(server, secret, {
        bookingPageId: intro,
        startTime: slot.start,
        endTime: slot.end,
      });
      assert.equal(booking.start_time, rowTime(slot.start));
    });

    test('createBooking: a publishable key must pick an offered slot, else 409 not available', async () => {
      const day = hostDay(NEW_YORK, 8);
      const buffered = ada.page('buffered').id;
      const past = slotAt(hostDay(NEW_YORK, -1), '10:00', 30);
      const cases: [string, string, Slot][] = [
        ['outside the host hours', intro, slotAt(day, '07:00', 30)],
        ['ending after the host hours', intro, slotAt(day, '16:45', 30)],
        ['off the slot grid', intro, slotAt(day, '10:10', 30)],
        ['longer than the slot', intro, slotAt(day, '10:00', 60)],
        ['shorter than the slot', intro, slotAt(day, '10:00', 15)],
        ['in the past', intro, past],
        ['beyond max_days_ahead', buffered, slotAt(hostDay(NEW_YORK, 3), '09:00', 30)],
      ];
      for (const [name, page, slot] of cases) {
        const response = await postBooking(server, publishable, {
          bookingPageId: page,
          startTime: slot.start,
          endTime: slot.end,
        });
        assertError(response, 409, NOT_AVAILABLE, name);
      }
      // The same instant written with an offset is the same slot (request timestamps are ISO 8601).
      const three = hostTime(day, '15:00', NEW_YORK);
      const offset = (date: Date) => {
        const minutes = Math.round(
          (hostTime(day, '12:00', NEW_YORK).getTime() - Date.parse(`${day}T12:00:00Z`)) / 60_000,
        );
        const local = new Date(date.getTime() - minutes * 60_000).toISOString().slice(0, 19);
        const sign = minutes > 0 ? '-' : '+';
        const abs = Math.abs(minutes);
        return `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
      };
      const withOffset = await createBooking(server, publishable, {
        bookingPageId: intro,
        startTime: offset(three),
        endTime: offset(addMinutes(three, 30)),
      });
      assert.equal(withOffset.start_time, rowTime(three));
      assert.equal(withOffset.end_time, rowTime(addMinutes(three, 30)));
    });

    test('createBooking: a secret key books any free time, outside the host hours too', async () => {
      const day = hostDay(NEW_YORK, 9);
      const night = slotAt(day, '03:00', 30);
      const booking = await createBooking(server, secret, {
        bookingPageId: intro,
        startTime: night.start,
        endTime: night.end,
      });
      assert.equal(booking.status, 'confirmed');
      assert.equal(booking.start_time, rowTime(night.start));
      const offGrid = slotAt(day, '10:10', 30);
      const second = await createBooking(server, secret, {
        bookingPageId: intro,
        startTime: offGrid.start,
        endTime: offGrid.end,
      });
      assert.equal(second.start_time, rowTime(offGrid.start));
      // README: a timestamp without an offset is read as UTC.
      const utc = await createBooking(server, secret, {
        bookingPageId: intro,
        startTime: `${day}T06:00:00`,
        endTime: `${day}T06:30:00`,
      });
      assert.equal(utc.start_time, `${day}T06:00:00.000+00:00`);
      assert.equal(utc.end_time, `${day}T06:30:00.000+00:00`);
    });

    test('createBooking: a time another booking holds is 409 no longer available (secret key)', async () => {
      const day = hostDay(NEW_YORK, 9);
      const night = slotAt(day, '03:00', 30); // booked by the previous test
      const again = await postBooking(server, secret, {
        bookingPageId: intro,
        startTime: night.start,
        endTime: night.end,
      });
      assertError(again, 409, TAKEN, 'secret, same time again');

      const slot = slotAt(day, '12:00', 30);
      await createBooking(server, publishable, { bookingPageId: intro, startTime: slot.start, endTime: slot.end });
      const same = await postBooking(server, secret, {
        bookingPageId: intro,
        startTime: slot.start,
        endTime: slot.end,
      });
      assertError(same, 409, TAKEN, 'secret, a slot booked with the publishable key');
      const overlapping = slotAt(day, '12:15', 30);
      assertError(
        await postBooking(server, secret, {
          bookingPageId: intro,
          startTime: overlapping.start,
          endTime: overlapping.end,
        }),
        409,
        TAKEN,
        'partial overlap',
      );
      // A booking on another page of the same host holds the time too, pending ones included.
      const hour = slotAt(day, '14:00', 60);
      const pending = await createBooking(server, publishable, {
        bookingPageId: approval,
        startTime: hour.start,
        endTime: hour.end,
      });
      assert.equal(pending.status, 'pending');
      const inside = slotAt(day, '14:30', 30);
      const held = await postBooking(server, secret, {
        bookingPageId: intro,
        startTime: inside.start,
        endTime: inside.end,
      });
      assertError(held, 409, TAKEN, 'held by a pending booking on another page');
      // Back-to-back is fine (half-open ranges).
      for (const time of ['11:30', '12:30']) {
        const free = slotAt(day, time, 30);
        await createBooking(server, publishable, { bookingPageId: intro, startTime: free.start, endTime: free.end });
      }
      // Another host's calendar is separate: bob books the same instant.
      const bobBooking = await createBooking(server, bob.key('secret'), {
        bookingPageId: bob.page('intro').id,
        startTime: slot.start,
        endTime: addMinutes(new Date(slot.start), 20).toISOString(),
      });
      assert.equal(bobBooking.user_id, bob.id);
    });

    test('createBooking: a slot another booking took is 409 no longer available for a publishable key too (rule 3)', async () => {
      const day = hostDay(NEW_YORK, 9);
      // 12:00 was booked and 14:00-15:00 is held by a pending approval booking (previous test).
      for (const time of ['12:00', '14:30']) {
        const slot = slotAt(day, time, 30);
        const response = await postBooking(server, publishable, {
          bookingPageId: intro,
          startTime: slot.start,
          endTime: slot.end,
        });
        assertError(response, 409, TAKEN, `publishable, ${time} taken`);
      }
    });

    const race = async (key: string, slot: Slot, name: string, message: string | RegExp) => {
      const responses = await Promise.all(
        Array.from({ length: 10 }, () =>
          postBooking(server, key, { bookingPageId: intro, startTime: slot.start, endTime: slot.end }),
        ),
      );
      const created = responses.filter((r) => r.status === 201);
      assert.equal(created.length, 1, `${name}: ${responses.map((r) => r.status).join(',')}`);
      if (server.sql) {
        const rows = await server.sql(
          `select id from bookings where user_id = $1 and start_time = $2 and status in ('pending', 'confirmed')`,
          [ada.id, slot.start],
        );
        assert.equal(rows.length, 1, `${name}: one row in the database`);
      }
      for (const response of responses.filter((r) => r.status !== 201)) assertError(response, 409, message, name);
    };

    test('createBooking: 10 parallel requests for one slot give exactly one 201', async () => {
      const day = hostDay(NEW_YORK, 10);
      await race(secret, slotAt(day, '10:00', 30), 'secret', TAKEN);
      // Overlapping but different times race as well: every pair of these overlaps.
      const base = hostTime(day, '14:00', NEW_YORK);
      const responses = await Promise.all(
        [0, 5, 10, 15, 20, 25].map((minutes) =>
          postBooking(server, secret, {
            bookingPageId: intro,
            startTime: addMinutes(base, minutes).toISOString(),
            endTime: addMinutes(base, minutes + 30).toISOString(),
          }),
        ),
      );
      assert.equal(responses.filter((r) => r.status === 201).length, 1, responses.map((r) => r.status).join(','));
      for (const response of responses.filter((r) => r.status !== 201)) {
        assertError(response, 409, TAKEN, 'overlap race');
      }
    });

    test('createBooking: 10 parallel requests with a publishable key give one 201, the rest 409', async () => {
      const day = hostDay(NEW_YORK, 10);
      // Exactly one wins; the losers are 409. Which message a loser gets depends on whether it saw the winner's
      // booking before checking the slot (the message itself is checked by the rule 3 test above).
      const either = new RegExp(`^(${[TAKEN, NOT_AVAILABLE].map((m) => m.replaceAll('.', '\\.')).join('|')})$`);
      await race(publishable, slotAt(day, '11:00', 30), 'publishable', either);
    });

    test('createBooking 400: Invalid JSON body', async () => {
      for (const body of ['{"bookingPageId":', 'not json', '']) {
        const response = await call(server, 'POST', '/bookings', { key: secret, body });
        assertError(response, 400, INVALID_JSON, JSON.stringify(body));
      }
    });

    const validBody = (day = hostDay(NEW_YORK, 19), time = '10:00') => {
      const slot = slotAt(day, time, 30);
      return bookingBody({ bookingPageId: intro, startTime: slot.start, endTime: slot.end });
    };

    test('createBooking 400: Missing required fields', async () => {
      for (const field of ['bookingPageId', 'guestName', 'guestEmail', 'startTime', 'endTime']) {
        const body = validBody();
        delete body[field];
        const response = await call(server, 'POST', '/bookings', { key: secret, json: body });
        assertError(response, 400, MISSING_FIELDS, `without ${field}`);
      }
      assertError(await call(server, 'POST', '/bookings', { key: secret, json: {} }), 400, MISSING_FIELDS, '{}');
    });

    test('createBooking 400: guestEmail must be a valid email address', async () => {
      for (const guestEmail of ['not-an-email', 'ada@', '@example.com', 'two words@example.com']) {
        const response = await call(server, 'POST', '/bookings', { key: secret, json: { ...validBody(), guestEmail } });
        assertError(response, 400, BAD_EMAIL, guestEmail);
      }
    });

    test('createBooking 400: startTime and endTime must be ISO 8601, endTime after startTime', async () => {
      const day = hostDay(NEW_YORK, 19);
      const ten = slotAt(day, '10:00', 30);
      const cases: [string, string, string][] = [
        ['startTime not a date', 'tomorrow', ten.end],
        ['endTime not a date', ten.start, 'soon'],
        ['startTime not a real day', '2026-02-30T10:00:00Z', '2026-02-30T10:30:00Z'],
        ['end before start', ten.end, ten.start],
        ['end equal to start', ten.start, ten.start],
      ];
      for (const [name, startTime, endTime] of cases) {
        const response = await call(server, 'POST', '/bookings', {
          key: secret,
          json: { ...validBody(), startTime, endTime },
        });
        assertError(response, 400, BAD_TIMES, name);
      }
    });

    test('createBooking 400: responses must be an array of { questionId, answer }', async () => {
      const [q0] = ada.page('intro').questions;
      const cases: unknown[] = [
        { questionId: q0, answer: 'a' },
        'a',
        42,
        [1],
        [null],
        [{ questionId: q0 }],
        [{ answer: 'a' }],
        [{ questionId: q0, answer: 5 }],
        [{ questionId: 7, answer: 'a' }],
      ];
      for (const responses of cases) {
        const response = await call(server, 'POST', '/bookings', { key: secret, json: { ...validBody(), responses } });
        assertError(response, 400, BAD_RESPONSES, JSON.stringify(responses));
      }
    });

    test('createBooking: page checks (inactive or unknown 400, another account 403)', async () => {
      const slot = slotAt(hostDay(NEW_YORK, 19), '10:00', 30);
      const cases: [string, string, string, number, string][] = [
        ['inactive page', publishable, ada.page('inactive').id, 400, PAGE_NOT_FOUND],
        ['inactive page, secret key', secret, ada.page('inactive').id, 400, PAGE_NOT_FOUND],
        ['unknown page (README)', secret, randomUUID(), 400, PAGE_NOT_FOUND],
        ['not a uuid (README)', publishable, 'intro', 400, PAGE_NOT_FOUND],
        ["bob's page with ada's publishable key", publishable, bob.page('intro').id, 403, NOT_OWNER],
        ["bob's page with ada's secret key", secret, bob.page('intro').id, 403, NOT_OWNER],
        ["ada's page with bob's key", bob.key('publishable'), intro, 403, NOT_OWNER],
      ];
      for (const [name, key, bookingPageId, status, message] of cases) {
        const response = await postBooking(server, key, { bookingPageId, startTime: slot.start, endTime: slot.end });
        assertError(response, status, message, name);
      }
    });

    test('createBooking: text lengths and body size limits (README)', async () => {
      const [q0] = ada.page('intro').questions;
      const over = async (json: unknown, field: RegExp, name: string) =>
        assertError(await call(server, 'POST', '/bookings', { key: secret, json }), 400, field, name);
      await over({ ...validBody(), guestName: 'x'.repeat(201) }, /guestName/, 'guestName of 201');
      await over({ ...validBody(), guestEmail: `${'a'.repeat(310)}@example.com` }, /guestEmail/, 'guestEmail > 320');
      await over(
        { ...validBody(), responses: [{ questionId: q0, answer: 'x'.repeat(5001) }] },
        /answer|responses/,
        'answer of 5001',
      );
      await over(
        { ...validBody(), responses: Array.from({ length: 101 }, () => ({ questionId: q0, answer: 'a' })) },
        /responses/,
        '101 responses',
      );
      const big = await call(server, 'POST', '/bookings', {
        key: secret,
        json: { ...validBody(), guestName: 'x'.repeat(70 * 1024) },
      });
      assertError(big, 413, 'Request body too large', 'body > 64 KiB');
      // At the limits everything is accepted.
      const fifteen = slotAt(hostDay(NEW_YORK, 19), '15:00', 30);
      const ok = await createBooking(server, secret, {
        bookingPageId: intro,
        startTime: fifteen.start,
        endTime: fifteen.end,
        guestName: 'n'.repeat(200),
        responses: [{ questionId: q0, answer: 'y'.repeat(5000) }],
      });
      assert.equal(ok.guest_name.length, 200);
      // None of the refused requests booked 10:00.
      assert.ok(
        starts(await listSlots(server, secret, 'intro', hostDay(NEW_YORK, 19))).includes(
          slotAt(hostDay(NEW_YORK, 19), '10:00', 30).start,
        ),
      );
    });

    test('NUL characters: 400 naming the field; a slug or username with one is not found (README)', async () => {
      const [q0] = ada.page('intro').questions;
      const nul = async (method: string, path: string, json: unknown, message: string) =>
        assertError(await call(server, method, path, { key: secret, json }), 400, message, `${method} ${path}`);
      await nul(
        'POST',
        '/bookings',
        { ...validBody(), guestName: 'Gr\u0000ace' },
        '`guestName` must not contain NUL characters',
      );
      await nul(
        'POST',
        '/bookings',
        { ...validBody(), responses: [{ questionId: q0, answer: 'a\u0000b' }] },
        'each `answer` must not contain NUL characters',
      );
      const slot = slotAt(hostDay(NEW_YORK, 21), '14:00', 60);
      const booking = await createBooking(server, secret, {
        bookingPageId: approval,
        startTime: slot.start,
        endTime: slot.end,
      });
      await nul(
        'PATCH',
        `/bookings/${booking.id}`,
        { status: 'cancelled', reason: 'no\u0000' },
        '`reason` must not contain NUL characters',
      );
      assertError(await call(server, 'GET', '/booking-pages/in%00tro', { key: secret }), 404, 'Booking page not found');
      const embed = await call(server, 'GET', '/embed/booking?username=ada%00', { key: secret });
      assertError(embed, 404, 'User not found');
    });

    test('createBooking: answers are saved and shown as meeting_responses', async () => {
      const day = hostDay(NEW_YORK, 12);
      const [q0, q1] = ada.page('intro').questions as [string, string];
      const slot = slotAt(day, '10:00', 30);
      const booking = await createBooking(server, publishable, {
        bookingPageId: intro,
        startTime: slot.start,
        endTime: slot.end,
        responses: [
          { questionId: q0, answer: 'a' },
          { questionId: q1, answer: 'Line one\nline two' },
        ],
      });
      assert.ok(!('meeting_responses' in booking));
      const detail = await getBooking(booking.id);
      for (const item of detail.meeting_responses)
        assert.deepEqual(Object.keys(item).sort(), ['answer', 'question_id']);
      assert.deepEqual(
        byQuestion(detail.meeting_responses),
        byQuestion([
          { question_id: q0, answer: 'a' },
          { question_id: q1, answer: 'Line one\nline two' },
        ]),
      );
      if (server.sql) {
        const rows = await server.sql('select question_id, answer from meeting_responses where booking_id = $1', [
          booking.id,
        ]);
        assert.equal(rows.length, 2);
      }
      // Skipped questions are left out; required ones are not enforced.
      const partial = slotAt(day, '11:00', 30);
      const second = await createBooking(server, publishable, {
        bookingPageId: intro,
        startTime: partial.start,
        endTime: partial.end,
        responses: [{ questionId: q1, answer: 'only this' }],
      });
      assert.deepEqual((await getBooking(second.id)).meeting_responses, [{ question_id: q1, answer: 'only this' }]);
      const empty = slotAt(day, '12:00', 30);
      const third = await createBooking(server, publishable, {
        bookingPageId: intro,
        startTime: empty.start,
        endTime: empty.end,
        responses: [],
      });
      assert.deepEqual((await getBooking(third.id)).meeting_responses, []);
    });

    test('createBooking: an answer to a question of another page fails with 400 and saves nothing (README)', async () => {
      const day = hostDay(NEW_YORK, 12);
      const [q0, q1] = ada.page('intro').questions as [string, string];
      const [bobQ0] = bob.page('intro').questions as [string];
      const slot = slotAt(day, '14:00', 30);
      const cases: [string, unknown][] = [
        ["bob's question", [{ questionId: bobQ0, answer: 'x' }]],
        [
          "one of bob's among ada's",
          [
            { questionId: q0, answer: 'a' },
            { questionId: bobQ0, answer: 'x' },
            { questionId: q1, answer: 'b' },
          ],
        ],
        ['an unknown question', [{ questionId: randomUUID(), answer: 'x' }]],
        [
          'the same question twice',
          [
            { questionId: q0, answer: 'a' },
            { questionId: q0, answer: 'b' },
          ],
        ],
      ];
      for (const [name, responses] of cases) {
        const email = uniqueEmail('foreign');
        const before = await dbCounts(email);
        for (const key of [publishable, secret]) {
          const response = await call(server, 'POST', '/bookings', {
            key,
            json: bookingBody({
              bookingPageId: intro,
              startTime: slot.start,
              endTime: slot.end,
              guestEmail: email,
              responses,
            }),
          });
          assertError(response, 400, FOREIGN_QUESTION, name);
        }
        assert.deepEqual(await bookingsOf(email), [], `${name}: no booking`);
        const afterwards = await dbCounts(email);
        if (before && afterwards) {
          assert.equal(afterwards.bookings, 0, `${name}: no booking row`);
          assert.equal(afterwards.responses, before.responses, `${name}: no answer row`);
        }
      }
      assert.ok(
        starts(await listSlots(server, publishable, 'intro', day)).includes(slot.start),
        'the slot is still free',
      );
      // Checked after the page checks.
      const inactive = await postBooking(server, publishable, {
        bookingPageId: ada.page('inactive').id,
        startTime: slot.start,
        endTime: slot.end,
        responses: [{ questionId: bobQ0, answer: 'x' }],
      });
      assertError(inactive, 400, PAGE_NOT_FOUND, 'inactive page with a foreign question');
      const foreign = await postBooking(server, publishable, {
        bookingPageId: bob.page('intro').id,
        startTime: slot.start,
        endTime: slot.end,
        responses: [{ questionId: q0, answer: 'a' }],
      });
      assertError(foreign, 403, NOT_OWNER, "bob's page with ada's question");
    });

    test('createBooking: 5 attempts per guest email per hour, failed ones counted; the sixth is 429', async () => {
      const day = hostDay(NEW_YORK, 13);
      // The window is the UTC clock hour: do not straddle its end.
      await awaitRoomInWindow(3_600_000, 30_000);
      const email = uniqueEmail('limited');
      for (const time of ['03:00', '04:00', '05:00']) {
        const slot = slotAt(day, time, 30);
        const response = await postBooking(server, publishable, {
          bookingPageId: intro,
          startTime: slot.start,
          endTime: slot.end,
          guestEmail: email,
        });
        assertError(response, 409, NOT_AVAILABLE, `attempt at ${time}`);
      }
      for (const time of ['10:00', '11:00']) {
        const slot = slotAt(day, time, 30);
        await createBooking(server, publishable, {
          bookingPageId: intro,
          startTime: slot.start,
          endTime: slot.end,
          guestEmail: email,
        });
      }
      const noon = slotAt(day, '12:00', 30);
      const sixth = await postBooking(server, publishable, {
        bookingPageId: intro,
        startTime: noon.start,
        endTime: noon.end,
        guestEmail: email,
      });
      assertError(sixth, 429, TOO_MANY, 'sixth attempt');
      for (const name of ['retry-after', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) {
        assert.equal(sixth.headers.get(name), null, `the guest-email 429 has no ${name}`);
      }
      // The address is compared case-insensitively (README), whatever the key.
      const upper = await postBooking(server, secret, {
        bookingPageId: intro,
        startTime: noon.start,
        endTime: noon.end,
        guestEmail: email.toUpperCase(),
      });
      assertError(upper, 429, TOO_MANY, 'the same address in capitals, secret key');
      assert.equal((await bookingsOf(email)).length, 2, 'only the two 201s were saved');
      // Another address is unaffected, and gets the slot the refused attempts did not take.
      const other = await createBooking(server, publishable, {
        bookingPageId: intro,
        startTime: noon.start,
        endTime: noon.end,
        guestEmail: uniqueEmail('unlimited'),
      });
      assert.equal(other.status, 'confirmed');
    });

    test('createBooking: malformed requests (400) do not count against the guest email (README)', async () => {
      const day = hostDay(NEW_YORK, 13);
      await awaitRoomInWindow(3_600_000, 30_000);
      const email = uniqueEmail('malformed');
      const slot = slotAt(day, '14:00', 30);
      for (let i = 0; i < 6; i++) {
        const response = await postBooking(server, secret, {
          bookingPageId: intro,
          startTime: slot.end,
          endTime: slot.start,
          guestEmail: email,
        });
        assertError(response, 400, BAD_TIMES, `malformed ${i + 1}`);
      }
      await createBooking(server, secret, {
        bookingPageId: intro,
        startTime: slot.start,
        endTime: slot.end,
        guestEmail: email,
      });
    });

    // ---------------------------------------------------------------------------------------------------------
    // getBooking

    test('getBooking: the detail with meeting_responses; 404 for unknown, non-uuid and foreign ids; 403 publishable', async () => {
      const day = hostDay(NEW_YORK, 14);
      const slot = slotAt(day, '10:00', 60);
      // An approval page: nothing (meeting links, calendar sync) changes the row after the 201.
      const booking = await createBooking(server, publishable, {
        bookingPageId: approval,
        startTime: slot.start,
        endTime: slot.end,
      });
      const detail = await getBooking(booking.id);
      assertBookingShape(detail, 'detail');
      assert.deepEqual(detail.meeting_responses, []);
      const { meeting_responses: _responses, ...row } = detail;
      assert.deepEqual(row, booking, 'the detail is the created row plus meeting_responses');
      assert.deepEqual((await getBooking(booking.id, ada.key('future'))).id, booking.id);

      for (const [name, id, key] of [
        ['unknown uuid', randomUUID(), secret],
        ['not a uuid', 'not-a-uuid', secret],
        ['a number', '12345', secret],
        ["ada's booking with bob's key", booking.id, bob.key('secret')],
      ] as const) {
        assertError(await call(server, 'GET', `/bookings/${id}`, { key }), 404, BOOKING_NOT_FOUND, name);
      }
      assertError(
        await call(server, 'GET', `/bookings/${booking.id}`, { key: publishable }),
        403,
        missingScope('bookings:read'),
      );
    });

    // ---------------------------------------------------------------------------------------------------------
    // updateBooking

    test('updateBooking: confirm, cancel with a reason, cancel again without, confirm again', async () => {
      const day = hostDay(NEW_YORK, 15);
      const slot = slotAt(day, '10:00', 60);
      const booking = await createBooking(server, publishable, {
        bookingPageId: approval,
        startTime: slot.start,
        endTime: slot.end,
      });
      assert.equal(booking.status, 'pending');

      const patch = async (json: unknown) => {
        await sleep(5);
        const response = await call<{ data: Booking }>(server, 'PATCH', `/bookings/${booking.id}`, {
          key: secret,
          json,
        });
        assertStatus(response, 200, `PATCH ${JSON.stringify(json)}`);
        assert.deepEqual(Object.keys(response.body), ['data']);
        assertBookingShape(response.body.data, 'patched');
        assert.equal(response.body.data.id, booking.id);
        return response.body.data;
      };

      const confirmed = await patch({ status: 'confirmed' });
      assert.equal(confirmed.status, 'confirmed');
      assert.equal(confirmed.cancellation_reason, null);
      assert.ok(Date.parse(confirmed.updated_at) > Date.parse(booking.updated_at), 'updated_at moves');
      assert.equal(confirmed.created_at, booking.created_at);
      assert.equal((await getBooking(booking.id)).status, 'confirmed');
      assert.ok(!starts(await listSlots(server, secret, 'approval', day)).includes(slot.start));

      const cancelled = await patch({ status: 'cancelled', reason: 'Host is away' });
      assert.equal(cancelled.status, 'cancelled');
      assert.equal(cancelled.cancellation_reason, 'Host is away');
      assert.ok(Date.parse(cancelled.updated_at) > Date.parse(confirmed.updated_at), 'updated_at moves');
      const stored = await getBooking(booking.id);
      assert.equal(stored.status, 'cancelled');
      assert.equal(stored.cancellation_reason, 'Host is away');
      assert.ok(
        starts(await listSlots(server, secret, 'approval', day)).includes(slot.start),
        'cancelling frees the slot',
      );

      const again = await patch({ status: 'cancelled' });
      assert.equal(again.status, 'cancelled');
      assert.equal(again.cancellation_reason, null, 'a PATCH without reason clears it');
      assert.equal((await getBooking(booking.id)).cancellation_reason, null);

      const reconfirmed = await patch({ status: 'confirmed', reason: 'back on' });
      assert.equal(reconfirmed.status, 'confirmed', 'a cancelled booking is confirmed again');
      assert.ok(Date.parse(reconfirmed.updated_at) > Date.parse(again.updated_at));
      assert.ok(
        !starts(await listSlots(server, secret, 'approval', day)).includes(slot.start),
        'the slot is held again',
      );
    });

    test('updateBooking: confirming creates the meeting link of an approval page; sync_status is not updated', async () => {
      const day = hostDay(NEW_YORK, 15);
      const slot = slotAt(day, '16:00', 30);
      const booking = await createBooking(server, publishable, {
        bookingPageId: ada.page('approval-meet').id,
        startTime: slot.start,
        endTime: slot.end,
      });
      assert.equal(booking.status, 'pending');
      assert.equal(booking.ext_meet_link, null, 'no link while pending');
      assert.equal(booking.sync_status, 'not_synced');
      const confirmed = await call<{ data: Booking }>(server, 'PATCH', `/bookings/${booking.id}`, {
        key: secret,
        json: { status: 'confirmed' },
      });
      assertStatus(confirmed, 200);
      assert.equal(confirmed.body.data.status, 'confirmed');
      assert.ok(confirmed.body.data.ext_meet_link, 'the link exists once confirmed');
      assert.doesNotThrow(() => new URL(confirmed.body.data.ext_meet_link as string));
      assert.ok(confirmed.body.data.ext_calendar_event_id, 'the event exists once confirmed');
      assert.equal(confirmed.body.data.sync_status, 'not_synced', 'PATCH does not update sync_status');
      const stored = await getBooking(booking.id);
      assert.equal(stored.ext_meet_link, confirmed.body.data.ext_meet_link);
      // No service confirmation email (the external calendar invites the guest; with the built-in local calendar
      // that invitation is a `calendar_invite` email).
      const emails = await emailsOf(booking.id);
      if (emails) {
        const guest = booking.guest_email.toLowerCase();
        for (const kind of ['guest_confirmation', 'guest_approved']) {
          assert.ok(!emails.includes(`${kind} ${guest}`), `no ${kind} to the guest: ${emails}`);
        }
      }

      const cancelled = await call<{ data: Booking }>(server, 'PATCH', `/bookings/${booking.id}`, {
        key: secret,
        json: { status: 'cancelled' },
      });
      assertStatus(cancelled, 200);
      assert.equal(cancelled.body.data.sync_status, 'not_synced', 'PATCH does not update sync_status');
    });

    test('updateBooking: 400 for bad bodies, 404 for unknown or foreign ids, 403 for a publishable key', async () => {
      const day = hostDay(NEW_YORK, 15);
      const slot = slotAt(day, '14:00', 60);
      const booking = await createBooking(server, secret, {
        bookingPageId: approval,
        startTime: slot.start,
        endTime: slot.end,
      });
      const path = `/bookings/${booking.id}`;
      for (const body of ['{"status":', 'confirmed', '']) {
        assertError(await call(server, 'PATCH', path, { key: secret, body }), 400, INVALID_JSON, JSON.stringify(body));
      }
      for (const json of [
        {},
        { status: 'completed' },
        { status: 'pending' },
        { status: 'CONFIRMED' },
        { status: 1 },
        { reason: 'x' },
      ]) {
        assertError(await call(server, 'PATCH', path, { key: secret, json }), 400, BAD_STATUS, JSON.stringify(json));
      }
      assertError(
        await call(server, 'PATCH', path, { key: secret, json: { status: 'cancelled', reason: 42 } }),
        400,
        '`reason` must be a string',
        'reason not a string (README)',
      );
      assertError(
        await call(server, 'PATCH', path, { key: secret, json: { status: 'cancelled', reason: 'r'.repeat(2001) } }),
        400,
        /reason/,
        'reason of 2001 (README)',
      );
      for (const [name, id, key] of [
        ['unknown uuid', randomUUID(), secret],
        ['not a uuid', 'nope', secret],
        ["ada's booking with bob's key", booking.id, bob.key('secret')],
      ] as const) {
        const response = await call(server, 'PATCH', `/bookings/${id}`, { key, json: { status: 'cancelled' } });
        assertError(response, 404, BOOKING_NOT_FOUND, name);
      }
      assertError(
        await call(server, 'PATCH', path, { key: publishable, json: { status: 'cancelled' } }),
        403,
        missingScope('bookings:write'),
      );
      const unchanged = await getBooking(booking.id);
      assert.equal(unchanged.status, 'pending', 'none of the refused requests changed the booking');
      assert.equal(unchanged.updated_at, booking.updated_at);
    });

    test('updateBooking: confirming a cancelled booking whose time was taken since is 409 (README)', async () => {
      const day = hostDay(NEW_YORK, 17);
      const slot = slotAt(day, '10:00', 30);
      const first = await createBooking(server, secret, {
        bookingPageId: intro,
        startTime: slot.start,
        endTime: slot.end,
      });
      assertStatus(await call(server, 'DELETE', `/bookings/${first.id}`, { key: secret }), 200);
      const second = await createBooking(server, publishable, {
        bookingPageId: intro,
        startTime: slot.start,
        endTime: slot.end,
      });
      const response = await call(server, 'PATCH', `/bookings/${first.id}`, {
        key: secret,
        json: { status: 'confirmed' },
      });
      assertError(response, 409, TAKEN, 'reconfirm over another booking');
      assert.equal((await getBooking(first.id)).status, 'cancelled');
      assert.equal((await getBooking(second.id)).status, 'confirmed');
    });

    // ---------------------------------------------------------------------------------------------------------
    // cancelBooking

    test('cancelBooking: { success: true }, cancelled, slot freed, safe to repeat', async () => {
      const day = hostDay(NEW_YORK, 16);
      const slot = slotAt(day, '10:00', 30);
      const booking = await createBooking(server, publishable, {
        bookingPageId: intro,
        startTime: slot.start,
        endTime: slot.end,
      });
      assert.ok(!starts(await listSlots(server, publishable, 'intro', day)).includes(slot.start));

      const response = await call(server, 'DELETE', `/bookings/${booking.id}`, { key: secret });
      assertStatus(response, 200, 'DELETE');
      assert.deepEqual(response.body, { success: true });
      const stored = await getBooking(booking.id);
      assert.equal(stored.status, 'cancelled');
      assert.equal(stored.cancellation_reason, null);
      assert.ok(Date.parse(stored.updated_at) > Date.parse(booking.updated_at), 'updated_at moves');
      assert.equal(stored.sync_status, booking.sync_status, 'DELETE does not update sync_status');
      assert.ok(
        starts(await listSlots(server, publishable, 'intro', day)).includes(slot.start),
        'the slot is offered again',
      );
      const rebooked = await createBooking(server, publishable, {
        bookingPageId: intro,
        startTime: slot.start,
        endTime: slot.end,
      });
      assert.equal(rebooked.status, 'confirmed');

      const repeat = await call(server, 'DELETE', `/bookings/${booking.id}`, { key: secret });
      assertStatus(repeat, 200, 'second DELETE');
      assert.deepEqual(repeat.body, { success: true });
      assert.equal((await getBooking(rebooked.id)).status, 'confirmed', 'repeating the DELETE touches nothing else');
    });

    test('cancelBooking: never stores a reason, and clears an earlier one (README)', async () => {
      const day = hostDay(NEW_YORK, 16);
      const slot = slotAt(day, '13:00', 60);
      const booking = await createBooking(server, publishable, {
        bookingPageId: approval,
        startTime: slot.start,
        endTime: slot.end,
      });
      const patched = await call<{ data: Booking }>(server, 'PATCH', `/bookings/${booking.id}`, {
        key: secret,
        json: { status: 'cancelled', reason: 'first' },
      });
      assertStatus(patched, 200);
      assert.equal(patched.body.data.cancellation_reason, 'first');
      assert.deepEqual((await call(server, 'DELETE', `/bookings/${booking.id}`, { key: secret })).body, {
        success: true,
      });
      const stored = await getBooking(booking.id);
      assert.equal(stored.status, 'cancelled');
      assert.equal(stored.cancellation_reason, null);
    });

    test('cancelBooking: 404 for unknown and foreign ids, 403 for a publishable key', async () => {
      const day = hostDay(NEW_YORK, 16);
      const slot = slotAt(day, '15:00', 30);
      const booking = await createBooking(server, secret, {
        bookingPageId: intro,
        startTime: slot.start,
        endTime: slot.end,
      });
      for (const [name, id, key] of [
        ['unknown uuid', randomUUID(), secret],
        ['not a uuid', 'nope', secret],
        ["ada's booking with bob's key", booking.id, bob.key('secret')],
      ] as const) {
        assertError(await call(server, 'DELETE', `/bookings/${id}`, { key }), 404, BOOKING_NOT_FOUND, name);
      }
      assertError(
        await call(server, 'DELETE', `/bookings/${booking.id}`, { key: publishable }),
        403,
        missingScope('bookings:write'),
      );
      assert.equal((await getBooking(booking.id)).status, 'confirmed', 'the refused requests cancelled nothing');
    });

    // ---------------------------------------------------------------------------------------------------------
    // listBookings

    test('listBookings: latest start_time first, across pages', async () => {
      const day = hostDay(NEW_YORK, 300); // later than any other booking of this file
      const created: Booking[] = [];
      for (const [page, time, minutes] of [
        [intro, '12:00', 30],
        [approval, '09:00', 60],
        [intro, '15:00', 30],
      ] as const) {
        const slot = slotAt(day, time, minutes);
        created.push(
          await createBooking(server, secret, { bookingPageId: page, startTime: slot.start, endTime: slot.end }),
        );
      }
      const top = await listBookings('?limit=3');
      assert.deepEqual(
        top.map((b) => b.id),
        [created[2]?.id, created[0]?.id, created[1]?.id],
      );
      for (const booking of top) {
        assertBookingShape(booking, 'list item');
        assert.equal(booking.user_id, ada.id);
      }
      const all = await listBookings('?limit=200');
      assertLatestFirst(all, 'limit=200');
      assert.deepEqual(
        all.slice(0, 3).map((b) => b.id),
        top.map((b) => b.id),
      );
      assert.equal((await listBookings('?limit=1')).length, 1);
    });

    test('listBookings: the status filter', async () => {
      const day = hostDay(NEW_YORK, 18);
      const pendingSlot = slotAt(day, '10:00', 60);
      const pending = await createBooking(server, publishable, {
        bookingPageId: approval,
        startTime: pendingSlot.start,
        endTime: pendingSlot.end,
      });
      const confirmedSlot = slotAt(day, '13:00', 30);
      const confirmed = await createBooking(server, secret, {
        bookingPageId: intro,
        startTime: confirmedSlot.start,
        endTime: confirmedSlot.end,
      });
      const cancelledSlot = slotAt(day, '14:00', 30);
      const cancelled = await createBooking(server, secret, {
        bookingPageId: intro,
        startTime: cancelledSlot.start,
        endTime: cancelledSlot.end,
      });
      assertStatus(await call(server, 'DELETE', `/bookings/${cancelled.id}`, { key: secret }), 200);

      const expectations: [string, string][] = [
        ['pending', pending.id],
        ['confirmed', confirmed.id],
        ['cancelled', cancelled.id],
      ];
      for (const [status, id] of expectations) {
        const list = await listBookings(`?status=${status}&limit=200`);
        assert.ok(list.length > 0);
        for (const booking of list) assert.equal(booking.status, status, `status=${status}`);
        assert.ok(
          list.some((b) => b.id === id),
          `status=${status} lists ${id}`,
        );
        for (const [other, otherId] of expectations) {
          if (other !== status) assert.ok(!list.some((b) => b.id === otherId), `status=${status} omits ${other}`);
        }
        assertLatestFirst(list, `status=${status}`);
      }
      assert.deepEqual(await listBookings('?status=completed'), [], 'the service never sets completed');
      const all = await listBookings('?limit=200');
      const counts = await Promise.all(
        ['pending', 'confirmed', 'cancelled'].map(
          async (status) => (await listBookings(`?status=${status}&limit=200`)).length,
        ),
      );
      if (all.length < 200)
        assert.equal(
          counts.reduce((a, b) => a + b, 0),
          all.length,
          'the statuses partition the list',
        );
    });

    test('listBookings: 400 for an invalid status or limit (README)', async () => {
      for (const status of ['bogus', 'PENDING', 'canceled']) {
        assertError(
          await call(server, 'GET', `/bookings?status=${status}`, { key: secret }),
          400,
          '`status` must be one of pending, confirmed, cancelled, completed',
          `status=${status}`,
        );
      }
      for (const limit of ['0', '-1', 'abc', '1.5', '10x']) {
        assertError(
          await call(server, 'GET', `/bookings?limit=${limit}`, { key: secret }),
          400,
          '`limit` must be a positive integer',
          `limit=${limit}`,
        );
      }
    });

    test("listBookings: a key sees only its own account's bookings", async () => {
      const bobSecret = bob.key('secret');
      const bobDay = hostDay(BERLIN, 18);
      const slot = slotAt(bobDay, '10:00', 20, BERLIN);
      const bobs = await createBooking(server, bob.key('publishable'), {
        bookingPageId: bob.page('intro').id,
        startTime: slot.start,
        endTime: slot.end,
      });
      assert.equal(bobs.user_id, bob.id);
      const bobList = await listBookings('?limit=200', bobSecret);
      assert.ok(bobList.length >= 1 && bobList.some((b) => b.id === bobs.id));
      for (const booking of bobList) assert.equal(booking.user_id, bob.id, "bob's list holds only bob's bookings");
      const adaList = await listBookings('?limit=200');
      assert.ok(adaList.length > 0);
      for (const booking of adaList) assert.equal(booking.user_id, ada.id, "ada's list holds only ada's bookings");
      // getBooking the other way round is 404 too.
      assertError(await call(server, 'GET', `/bookings/${bobs.id}`, { key: secret }), 404, BOOKING_NOT_FOUND);
    });

    test('listBookings: limit defaults to 50 and is capped at 200', async () => {
      // Enough bookings for a full list (the "future" key spreads the requests over a second key's limit).
      const future = ada.key('future');
      const base = hostTime(hostDay(NEW_YORK, 250), '00:00', NEW_YORK);
      const total = 205;
      const results = await inBatches(total, 15, (i) =>
        postBooking(server, future, {
          bookingPageId: intro,
          startTime: addMinutes(base, i * 30).toISOString(),
          endTime: addMinutes(base, i * 30 + 30).toISOString(),
        }),
      );
      results.forEach((response, i) => {
        assertStatus(response, 201, `booking ${i}`);
      });

      const defaultList = await listBookings('', future);
      assert.equal(defaultList.length, 50, 'default limit 50 (README)');
      const capped = await listBookings('?limit=500', future);
      assert.equal(capped.length, 200, 'limit above 200 is capped at 200');
      assert.equal((await listBookings('?limit=201', future)).length, 200);
      const exact = await listBookings('?limit=200', future);
      assert.deepEqual(
        exact.map((b) => b.id),
        capped.map((b) => b.id),
      );
      assertLatestFirst(capped, 'limit=500');
      assert.equal(new Set(capped.map((b) => b.id)).size, 200, 'no duplicates');
      assert.deepEqual(
        defaultList.map((b) => b.start_time),
        capped.slice(0, 50).map((b) => b.start_time),
        'the default list is the head of the full one',
      );
      assert.equal((await listBookings('?limit=7', future)).length, 7);
      if (server.sql) {
        const rows = await server.sql<{ start_time: string }>(
          `select to_char(start_time at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"+00:00"') as start_time
           from bookings where user_id = $1 order by start_time desc limit 200`,
          [ada.id],
        );
        assert.deepEqual(
          capped.map((b) => b.start_time),
          rows.map((r) => r.start_time),
          'the 200 latest start times of the account',
        );
      }
    });
  });
}

function starts(slots: Slot[]): string[] {
  return slots.map((slot) => slot.start);
}
