// The Google Calendar provider end to end against a local stand-in of Google's API, on PGlite and Postgres:
// createBooking / changeBookingStatus write and remove Google events with Meet links, the booking's ext_* and sync
// fields follow the spec, tokens are refreshed on expiry and on a 401, and are stored encrypted.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { GET as callbackRoute } from '../../app/api/calendar/google/callback/route';
import type { AccountId } from '../../lib/api-keys/auth';
import { createBooking, MEETING_FAILED, SLOT_TAKEN } from '../../lib/bookings/create';
import type { BookingRecord } from '../../lib/bookings/queries';
import { changeBookingStatus } from '../../lib/bookings/update';
import { decryptSecret } from '../../lib/calendar/encryption';
import { REVOKED_MESSAGE, saveGoogleConnection } from '../../lib/calendar/google';
import { completeGoogleConnect, GOOGLE_SCOPES, googleConsentUrl } from '../../lib/calendar/oauth';
import { providerFor } from '../../lib/calendar/provider';
import type { Db } from '../../lib/db/client';
import { ApiError } from '../../lib/http/errors';
import { importDocument } from '../../lib/import/import';
import { backends, type TestDb } from '../helpers/db';
import { type GoogleStandIn, googleEnv, startGoogleStandIn } from '../helpers/google-server';

const EVERY_DAY = Object.fromEntries(
  ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((day) => [day, [['09:00', '17:00']]]),
);

function document() {
  return {
    hosts: [
      {
        email: 'ada@example.com',
        username: 'ada',
        full_name: 'Ada Lovelace',
        timezone: 'UTC',
        availability: [{ name: 'Every day', weekly: EVERY_DAY }],
        pages: [
          { slug: 'meet', title: 'Meet', duration_minutes: 30, auto_generate_meet_link: true, max_days_ahead: null },
          {
            slug: 'approval',
            title: 'Approval',
            duration_minutes: 30,
            booking_type: 'approval',
            auto_generate_meet_link: true,
            max_days_ahead: null,
          },
          { slug: 'plain', title: 'Plain', duration_minutes: 30, auto_generate_meet_link: false, max_days_ahead: null },
        ],
      },
      {
        email: 'bob@example.com',
        username: 'bob',
        timezone: 'UTC',
        availability: [{ name: 'Every day', weekly: EVERY_DAY }],
        pages: [
          { slug: 'meet', title: 'Bob', duration_minutes: 30, auto_generate_meet_link: true, max_days_ahead: null },
        ],
      },
    ],
  };
}

const DB_KEY = Symbol.for('booking-service.db');
const key = randomBytes(32).toString('base64');
let google: GoogleStandIn;
const saved: Record<string, string | undefined> = {};

before(async () => {
  google = await startGoogleStandIn();
  for (const [name, value] of Object.entries(googleEnv(google, key))) {
    saved[name] = process.env[name];
    process.env[name] = value;
  }
});
after(async () => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  await google?.close();
});

/** The signed state inside a consent URL. */
const stateFor = (accountId: string, when = new Date()) =>
  new URL(googleConsentUrl(accountId, when).url).searchParams.get('state') as string;

let slotCounter = 0;
/** A fresh half-hour in 2030 for every booking, so no two tests compete for a slot. */
function nextSlot(): { start: Date; end: Date } {
  const start = new Date(Date.UTC(2030, 0, 7, 9) + slotCounter++ * 3_600_000);
  return { start, end: new Date(start.getTime() + 30 * 60_000) };
}

for (const backend of backends) {
  describe(`Google Calendar provider on ${backend.name}`, () => {
    let t: TestDb;
    let ada: AccountId;
    let bob: AccountId;
    let pages: Record<string, string>;
    let guests = 0;

    before(async () => {
      t = await backend.open();
      const result = await t.db.transaction((tx) => importDocument(tx, document()));
      ada = result.hosts.ada?.id as AccountId;
      bob = result.hosts.bob?.id as AccountId;
      pages = Object.fromEntries(Object.entries(result.hosts.ada?.pages ?? {}).map(([slug, page]) => [slug, page.id]));
      await connect(t.db, ada);
    });
    after(() => t?.drop());

    async function connect(db: Db, accountId: string, expiresInMs = 3_600_000) {
      const tokens = google.issueTokens();
      await saveGoogleConnection(db, accountId, { ...tokens, expiresAt: new Date(Date.now() + expiresInMs) });
      return tokens;
    }

    const book = (slug: string, slot = nextSlot(), email = `guest${++guests}@example.com`) =>
      createBooking(
        t.db,
        { accountId: ada, requireOfferedSlot: false },
        { bookingPageId: pages[slug] as string, guestName: 'Grace Hopper', guestEmail: email, ...slot, responses: [] },
      );

    const connection = async (accountId: string = ada) =>
      (
        await t.db.query<{
          id: string;
          calendar_id: string;
          access_token_enc: string;
          refresh_token_enc: string;
          token_expires_at: Date;
          sync_error: string | null;
        }>(
          `select id, calendar_id, access_token_enc, refresh_token_enc, token_expires_at, sync_error
           from calendar_connections where account_id = $1 and provider = 'google'`,
          [accountId],
        )
      ).rows[0];

    const stored = async (id: string) =>
      (await t.db.query<BookingRecord>('select * from bookings where id = $1', [id])).rows[0] as BookingRecord;

    const inserts = () => google.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/events'));
    const refreshes = () => google.requests.filter((r) => r.path === '/token' && r.body.grant_type === 'refresh_token');

    test('providerFor: Google for a connected host, local for others and when Google is not configured', async () => {
      assert.equal((await providerFor(t.db, ada)).name, 'google');
      assert.equal((await providerFor(t.db, bob)).name, 'local');
      const id = process.env.GOOGLE_CLIENT_ID;
      delete process.env.GOOGLE_CLIENT_ID;
      try {
        assert.equal((await providerFor(t.db, ada)).name, 'local');
      } finally {
        process.env.GOOGLE_CLIENT_ID = id;
      }
    });

    test('a direct booking creates the Google event with a Meet link, recorded on the booking', async () => {
      const slot = nextSlot();
      const booking = await book('meet', slot, 'grace@example.com');
      const request = inserts().at(-1);
      assert.ok(request);
      assert.equal(request.path, '/calendar/v3/calendars/primary/events');
      assert.equal(request.query.get('conferenceDataVersion'), '1');
      assert.equal(request.query.get('sendUpdates'), 'all');
      assert.equal(request.body.summary, 'Meet: Grace Hopper');
      assert.deepEqual(request.body.start, { dateTime: slot.start.toISOString(), timeZone: 'UTC' });
      assert.deepEqual(request.body.end, { dateTime: slot.end.toISOString(), timeZone: 'UTC' });
      assert.deepEqual(request.body.attendees, [{ email: 'grace@example.com', displayName: 'Grace Hopper' }]);
      assert.deepEqual(request.body.conferenceData, {
        createRequest: { requestId: booking.id, conferenceSolutionKey: { type: 'hangoutsMeet' } },
      });
      const event = google.events.get(booking.ext_calendar_event_id as string);
      assert.ok(event?.meetLink);
      assert.equal(booking.ext_meet_link, event.meetLink);
      assert.equal(booking.ext_calendar_id, 'primary');
      assert.equal(booking.sync_status, 'synced');
      assert.equal(booking.sync_failure_reason, null);
      assert.notEqual(booking.last_synced_at, null);
      const row = await stored(booking.id);
      assert.equal(row.ext_meet_link, event.meetLink);
      assert.equal(row.ext_calendar_event_id, event.id);
      assert.equal(row.ext_calendar_id, 'primary');
      assert.equal(row.sync_status, 'synced');
      assert.notEqual(row.last_synced_at, null);
      // Recorded as the host's Google booking event (so that cancelling finds its calendar).
      const { rows } = await t.db.query<{ kind: string; provider: string; meet_link: string }>(
        'select kind, provider, meet_link from calendar_events where booking_id = $1',
        [booking.id],
      );
      assert.deepEqual(rows, [{ kind: 'booking', provider: 'google', meet_link: event.meetLink }]);
    });

    test('a page without meeting links creates no Google event', async () => {
      const before = inserts().length;
      const booking = await book('plain');
      assert.equal(inserts().length, before);
      assert.equal(booking.ext_calendar_event_id, null);
      assert.equal(booking.sync_status, 'not_synced');
    });

    test('a failed insert: 500 Failed to create meeting, the booking kept as failed, the same slot again is 409', async () => {
      const slot = nextSlot();
      google.failNextInsert(500);
      await assert.rejects(
        book('meet', slot, 'failing@example.com'),
        (error: unknown) => error instanceof ApiError && error.status === 500 && error.message === MEETING_FAILED,
      );
      const { rows } = await t.db.query<BookingRecord>(
        'select * from bookings where guest_email = $1 and start_time = $2',
        ['failing@example.com', slot.start],
      );
      assert.equal(rows.length, 1);
      const [row] = rows as [BookingRecord];
      assert.equal(row.status, 'confirmed');
      assert.equal(row.sync_status, 'failed');
      assert.ok(row.sync_failure_reason);
      assert.equal(row.ext_calendar_event_id, null);
      assert.equal(row.ext_meet_link, null);
      // Spec, createBooking rule 7: a retry of an already created slot returns 409.
      await assert.rejects(
        book('meet', slot, 'failing@example.com'),
        (error: unknown) => error instanceof ApiError && error.status === 409 && error.message === SLOT_TAKEN,
      );
      // After an answer that says nothing was created, nothing is left in the calendar.
      const requestedId = inserts().at(-1)?.body.id as string;
      assert.equal(google.events.has(requestedId), false);
    });

    test('cancelling deletes the Google event and clears ext_* but keeps sync_status; busy time is re-synced', async () => {
      const booking = await book('meet');
      const eventId = booking.ext_calendar_event_id as string;
      const freeBusyBefore = google.count('POST', '/calendar/v3/freeBusy');
      const cancelled = await changeBookingStatus(t.db, ada, booking.id, 'cancelled', 'Ill');
      assert.equal(google.events.get(eventId)?.deleted, true);
      const deletion = google.requests.filter((r) => r.method === 'DELETE').at(-1);
      assert.equal(deletion?.path, `/calendar/v3/calendars/primary/events/${eventId}`);
      assert.equal(deletion?.query.get('sendUpdates'), 'all');
      assert.equal(cancelled.status, 'cancelled');
      assert.equal(cancelled.ext_calendar_event_id, null);
      assert.equal(cancelled.ext_calendar_id, null);
      assert.equal(cancelled.ext_meet_link, null);
      assert.equal(cancelled.sync_status, 'synced');
      assert.ok(google.count('POST', '/calendar/v3/freeBusy') > freeBusyBefore);
      // Again: nothing left to delete, still 200-worthy.
      const again = await changeBookingStatus(t.db, ada, booking.id, 'cancelled', null);
      assert.equal(again.status, 'cancelled');
    });

    test('an event already gone from Google (404/410) still cancels cleanly', async () => {
      const booking = await book('meet');
      google.events.delete(booking.ext_calendar_event_id as string);
      const cancelled = await changeBookingStatus(t.db, ada, booking.id, 'cancelled', null);
      assert.equal(cancelled.ext_calendar_event_id, null);
    });

    test('confirming an approval booking creates the event; sync_status stays as the API found it', async () => {
      const before = inserts().length;
      const pending = await book('approval');
      assert.equal(pending.status, 'pending');
      assert.equal(inserts().length, before);
      assert.equal(pending.sync_status, 'not_synced');
      const confirmed = await changeBookingStatus(t.db, ada, pending.id, 'confirmed', null);
      assert.equal(inserts().length, before + 1);
      const event = google.events.get(confirmed.ext_calendar_event_id as string);
      assert.ok(event);
      assert.equal(confirmed.ext_meet_link, event.meetLink);
      assert.deepEqual(event.body.attendees, [{ email: pending.guest_email, displayName: 'Grace Hopper' }]);
      assert.equal(confirmed.sync_status, 'not_synced');
      // Confirming again does not create a second event.
      await changeBookingStatus(t.db, ada, pending.id, 'confirmed', null);
      assert.equal(inserts().length, before + 1);
    });

    test('a 401 refreshes the access token once, stores the new one, and the request goes through', async () => {
      const before = await connection();
      const refreshCount = refreshes().length;
      google.unauthorizedOnce();
      const booking = await book('meet');
      assert.equal(booking.sync_status, 'synced');
      assert.equal(refreshes().length, refreshCount + 1);
      const after = await connection();
      assert.notEqual(after?.access_token_enc, before?.access_token_enc);
      const token = decryptSecret(after?.access_token_enc as string, `google:access:${ada}`);
      assert.ok(google.accessTokens.has(token));
      assert.ok(new Date(after?.token_expires_at as Date).getTime() > Date.now() + 50 * 60_000);
    });

    test('an expired access token is refreshed before the call', async () => {
      await t.db.query(
        `update calendar_connections set token_expires_at = now() - interval '1 minute' where account_id = $1`,
        [ada],
      );
      const refreshCount = refreshes().length;
      const unauthorizedBefore = google.requests.length;
      const booking = await book('meet');
      assert.equal(booking.sync_status, 'synced');
      assert.equal(refreshes().length, refreshCount + 1);
      // The refresh came first: exactly one token call and one insert, no 401 round trip.
      assert.deepEqual(
        google.requests.slice(unauthorizedBefore).map((r) => `${r.method} ${r.path}`),
        ['POST /token', 'POST /calendar/v3/calendars/primary/events'],
      );
    });

    test('revoked access: the booking is kept as failed and the connection says to reconnect', async () => {
      google.revokeRefreshTokens();
      await t.db.query(
        `update calendar_connections set token_expires_at = now() - interval '1 minute' where account_id = $1`,
        [ada],
      );
      await assert.rejects(book('meet'), (error: unknown) => error instanceof ApiError && error.status === 500);
      assert.equal((await connection())?.sync_error, REVOKED_MESSAGE);
      await connect(t.db, ada);
      assert.equal((await connection())?.sync_error, null);
    });

    test('tokens are stored encrypted, bound to their account and role', async () => {
      const tokens = await connect(t.db, ada);
      const row = await connection();
      assert.ok(row);
      for (const value of [row.access_token_enc, row.refresh_token_enc]) {
        assert.match(value, /^v1\./);
        assert.ok(!value.includes(tokens.accessToken) && !value.includes(tokens.refreshToken));
        assert.ok(!value.includes('fake-'));
      }
      const { rows } = await t.db.query<{ dump: string }>(
        'select row_to_json(c)::text as dump from calendar_connections c where id = $1',
        [row.id],
      );
      assert.ok(!rows[0]?.dump.includes(tokens.refreshToken));
      assert.equal(decryptSecret(row.access_token_enc, `google:access:${ada}`), tokens.accessToken);
      assert.equal(decryptSecret(row.refresh_token_enc, `google:refresh:${ada}`), tokens.refreshToken);
      assert.throws(() => decryptSecret(row.refresh_token_enc, `google:access:${ada}`));
      assert.throws(() => decryptSecret(row.refresh_token_enc, `google:refresh:${bob}`));
    });

    test('connecting: consent URL, then the callback exchanges the code and stores the connection', async () => {
      const { url, expiresAt } = googleConsentUrl(bob);
      const consent = new URL(url);
      assert.equal(`${consent.origin}${consent.pathname}`, `${google.url}/o/oauth2/v2/auth`);
      assert.equal(consent.searchParams.get('client_id'), 'test-client-id');
      assert.equal(consent.searchParams.get('redirect_uri'), 'http://localhost:3000/api/calendar/google/callback');
      assert.equal(consent.searchParams.get('response_type'), 'code');
      assert.equal(consent.searchParams.get('access_type'), 'offline');
      assert.equal(consent.searchParams.get('prompt'), 'consent');
      assert.deepEqual(consent.searchParams.get('scope')?.split(' '), [...GOOGLE_SCOPES]);
      assert.ok(expiresAt.getTime() - Date.now() > 14 * 60_000);
      const state = consent.searchParams.get('state') as string;

      google.setBusy('primary', []);
      const outcome = await completeGoogleConnect(t.db, { code: google.issueCode(), state, error: null });
      assert.equal(outcome.ok, true);
      const exchange = google.requests.filter((r) => r.body.grant_type === 'authorization_code').at(-1);
      assert.equal(exchange?.body.redirect_uri, 'http://localhost:3000/api/calendar/google/callback');
      const row = await connection(bob);
      assert.equal(row?.calendar_id, 'primary');
      assert.ok(google.refreshTokens.has(decryptSecret(row?.refresh_token_enc as string, `google:refresh:${bob}`)));
      assert.equal((await providerFor(t.db, bob)).name, 'google');

      // Reconnecting without a new refresh token keeps the stored one; still one connection.
      const again = await completeGoogleConnect(t.db, {
        code: google.issueCode({ withRefreshToken: false }),
        state: stateFor(bob),
        error: null,
      });
      assert.equal(again.ok, true);
      const count = await t.db.query<{ n: number }>(
        `select count(*)::int as n from calendar_connections where account_id = $1`,
        [bob],
      );
      assert.equal(count.rows[0]?.n, 1);
      assert.equal(
        decryptSecret((await connection(bob))?.refresh_token_enc as string, `google:refresh:${bob}`),
        decryptSecret(row?.refresh_token_enc as string, `google:refresh:${bob}`),
      );
    });

    test('the callback refuses expired, forged and incomplete links, denied access and partial scopes', async () => {
      const stateAt = (when: Date) => stateFor(bob, when);
      const expired = await completeGoogleConnect(t.db, {
        code: google.issueCode(),
        state: stateAt(new Date(Date.now() - 16 * 60_000)),
        error: null,
      });
      assert.deepEqual(expired, {
        ok: false,
        status: 400,
        message: 'This connection link has expired. Ask for a new one.',
      });
      const forged = await completeGoogleConnect(t.db, {
        code: google.issueCode(),
        state: `${stateAt(new Date())}x`,
        error: null,
      });
      assert.equal(forged.ok === false && forged.status, 400);
      const denied = await completeGoogleConnect(t.db, {
        code: null,
        state: stateAt(new Date()),
        error: 'access_denied',
      });
      assert.equal(denied.ok === false && denied.message, 'Access was not granted.');
      const noState = await completeGoogleConnect(t.db, { code: google.issueCode(), state: null, error: null });
      assert.equal(noState.ok === false && noState.status, 400);
      const partial = await completeGoogleConnect(t.db, {
        code: google.issueCode({ scope: GOOGLE_SCOPES[1] }),
        state: stateAt(new Date()),
        error: null,
      });
      assert.equal(partial.ok === false && partial.status, 400);
      const badCode = await completeGoogleConnect(t.db, { code: 'nope', state: stateAt(new Date()), error: null });
      assert.equal(badCode.ok === false && badCode.status, 502);
    });

    test('the callback route answers with a small HTML page that carries no token', async () => {
      const g = globalThis as Record<symbol, unknown>;
      const previous = g[DB_KEY];
      g[DB_KEY] = Promise.resolve(t.db);
      try {
        const state = stateFor(bob);
        const code = google.issueCode();
        const ok = await callbackRoute(
          new Request(
            `http://localhost:3000/api/calendar/google/callback?code=${encodeURIComponent(code)}&state=${state}`,
          ),
        );
        assert.equal(ok.status, 200);
        assert.match(ok.headers.get('content-type') ?? '', /^text\/html/);
        assert.equal(ok.headers.get('cache-control'), 'no-store');
        const html = await ok.text();
        assert.match(html, /Google Calendar connected/);
        const answer = google.requests.filter((r) => r.body.code === code);
        assert.equal(answer.length, 1);
        for (const token of [...google.accessTokens, ...google.refreshTokens, code]) assert.ok(!html.includes(token));
        const bad = await callbackRoute(
          new Request('http://localhost:3000/api/calendar/google/callback?code=x&state=y.z'),
        );
        assert.equal(bad.status, 400);
        assert.match(await bad.text(), /not connected/);
      } finally {
        g[DB_KEY] = previous;
      }
    });
  });
}
