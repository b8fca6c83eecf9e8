// The local provider's private iCalendar feed on PGlite and Postgres: token rotation (only a hash stored), the
// host's service-created events with the invite emails' UIDs, cancelled ones with their sequence, 404s, and the route.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { GET as feedRoute } from '../../app/calendar/[token]/route';
import type { AccountId } from '../../lib/api-keys/auth';
import { sha256Hex } from '../../lib/auth/tokens';
import { createBooking } from '../../lib/bookings/create';
import { changeBookingStatus } from '../../lib/bookings/update';
import { renderFeed, rotateFeedToken, tokenFromPath } from '../../lib/calendar/feed';
import { bookingUid } from '../../lib/email/ical';
import { importDocument } from '../../lib/import/import';
import { backends, type TestDb } from '../helpers/db';

const EVERY_DAY = Object.fromEntries(
  ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((day) => [day, [['09:00', '17:00']]]),
);
const NOW = new Date('2029-12-31T12:00:00Z');
const DB_KEY = Symbol.for('booking-service.db');

function document() {
  const host = (username: string, fullName: string) => ({
    email: `${username}@example.com`,
    username,
    full_name: fullName,
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
    ],
  });
  return { hosts: [host('ada', 'Ada Lovelace'), host('bob', 'Bob')] };
}

/** The VEVENT blocks of a calendar, unfolded, keyed by UID. */
function events(ics: string): Map<string, string> {
  const unfolded = ics.replace(/\r\n[ \t]/g, '');
  const blocks = unfolded.split('BEGIN:VEVENT\r\n').slice(1);
  return new Map(blocks.map((block) => [/^UID:(.*)$/m.exec(block)?.[1]?.trim() as string, block]));
}

describe('feed tokens', () => {
  test('the route segment must be a 43-character token, with or without .ics', () => {
    const token = 'a'.repeat(43);
    assert.equal(tokenFromPath(`${token}.ics`), token);
    assert.equal(tokenFromPath(token), token);
    for (const bad of ['', '.ics', 'short.ics', `${token}x.ics`, `${'a'.repeat(42)}!.ics`, `${token}.ics.ics`]) {
      assert.equal(tokenFromPath(bad), null, bad);
    }
  });
});

for (const backend of backends) {
  describe(`private iCalendar feed on ${backend.name}`, () => {
    let t: TestDb;
    let ada: AccountId;
    let bob: AccountId;
    let pages: Record<string, Record<string, string>>;
    let token: string;
    let guests = 0;
    const ids: Record<string, string> = {};

    const book = (host: 'ada' | 'bob', slug: string, hour: number) =>
      createBooking(
        t.db,
        { accountId: host === 'ada' ? ada : bob, requireOfferedSlot: false },
        {
          bookingPageId: pages[host]?.[slug] as string,
          guestName: `Guest ${++guests}`,
          guestEmail: `guest${guests}@example.com`,
          start: new Date(Date.UTC(2030, 0, 7, hour)),
          end: new Date(Date.UTC(2030, 0, 7, hour, 30)),
          responses: [],
        },
      );

    before(async () => {
      // The local provider (the default without Google configured).
      delete process.env.GOOGLE_CLIENT_ID;
      delete process.env.GOOGLE_CLIENT_SECRET;
      t = await backend.open();
      const result = await t.db.transaction((tx) => importDocument(tx, document()));
      ada = result.hosts.ada?.id as AccountId;
      bob = result.hosts.bob?.id as AccountId;
      pages = Object.fromEntries(
        Object.entries(result.hosts).map(([name, host]) => [
          name,
          Object.fromEntries(Object.entries(host.pages).map(([slug, page]) => [slug, page.id])),
        ]),
      );
      // Local events are rows in calendar_events; meeting links are Jitsi rooms.
      ids.live = (await book('ada', 'meet', 9)).id;
      ids.cancelled = (await book('ada', 'meet', 10)).id;
      await changeBookingStatus(t.db, ada, ids.cancelled, 'cancelled', null);
      ids.approved = (await book('ada', 'approval', 11)).id;
      ids.pending = (await book('ada', 'approval', 12)).id;
      await changeBookingStatus(t.db, ada, ids.approved, 'confirmed', null);
      ids.bob = (await book('bob', 'meet', 9)).id;
    });
    after(() => t?.drop());

    test('the token is 256 random bits; only its SHA-256 is stored', async () => {
      const feed = await rotateFeedToken(t.db, ada);
      token = feed.token;
      assert.match(token, /^[A-Za-z0-9_-]{43}$/);
      assert.equal(feed.url, `http://localhost:3000/calendar/${token}.ics`);
      const { rows } = await t.db.query<{ calendar_feed_token_hash: string }>(
        'select calendar_feed_token_hash from accounts where id = $1',
        [ada],
      );
      assert.equal(rows[0]?.calendar_feed_token_hash, sha256Hex(token));
    });

    test("the feed holds the host's service-created events with the invite emails' UIDs", async () => {
      const ics = (await renderFeed(t.db, `${token}.ics`, NOW)) as string;
      assert.match(ics, /^BEGIN:VCALENDAR\r\n/);
      assert.doesNotMatch(ics, /METHOD:/);
      assert.match(ics, /X-WR-CALNAME:Bookings \(ada\)/);
      const byUid = events(ics);
      // The pending booking has no event yet; Bob's booking is in Bob's feed only.
      assert.deepEqual(
        [...byUid.keys()].sort(),
        [ids.live, ids.cancelled, ids.approved].map((id) => bookingUid(id as string)).sort(),
      );
      const live = byUid.get(bookingUid(ids.live as string)) as string;
      assert.match(live, /STATUS:CONFIRMED/);
      assert.match(live, /SEQUENCE:0/);
      assert.match(live, /DTSTART:20300107T090000Z/);
      assert.match(live, /DTEND:20300107T093000Z/);
      assert.match(live, /SUMMARY:Meet: Ada Lovelace and Guest 1/);
      assert.match(live, /LOCATION:https:\/\/meet\.jit\.si\/Booking-[0-9a-f]{32}/);
      assert.match(live, /ATTENDEE;CN="Guest 1".*:mailto:guest1@example.com/);
      assert.match(byUid.get(bookingUid(ids.approved as string)) as string, /STATUS:CONFIRMED/);

      // The same UID as in the guest's confirmation email.
      const { rows } = await t.db.query<{ ics: string }>(
        `select ics from email_outbox where booking_id = $1 and kind = 'guest_confirmation'`,
        [ids.live],
      );
      assert.match(rows[0]?.ics ?? '', new RegExp(`UID:${bookingUid(ids.live as string)}`));
    });

    test('a cancelled booking is STATUS:CANCELLED with a higher sequence; confirmed again, it is one live event', async () => {
      let cancelled = events((await renderFeed(t.db, `${token}.ics`, NOW)) as string).get(
        bookingUid(ids.cancelled as string),
      ) as string;
      assert.match(cancelled, /STATUS:CANCELLED/);
      assert.match(cancelled, /SEQUENCE:1/);
      await changeBookingStatus(t.db, ada, ids.cancelled as string, 'confirmed', null);
      const byUid = events((await renderFeed(t.db, `${token}.ics`, NOW)) as string);
      assert.equal(byUid.size, 3);
      cancelled = byUid.get(bookingUid(ids.cancelled as string)) as string;
      assert.match(cancelled, /STATUS:CONFIRMED/);
      assert.match(cancelled, /SEQUENCE:2/);
    });

    test('unknown, malformed and rotated-away tokens get nothing', async () => {
      assert.equal(await renderFeed(t.db, `${'A'.repeat(43)}.ics`, NOW), null);
      assert.equal(await renderFeed(t.db, 'nope.ics', NOW), null);
      assert.equal(await renderFeed(t.db, '', NOW), null);
      const old = token;
      token = (await rotateFeedToken(t.db, ada)).token;
      assert.equal(await renderFeed(t.db, `${old}.ics`, NOW), null);
      assert.notEqual(await renderFeed(t.db, `${token}.ics`, NOW), null);
      // Another host's token shows only that host's events.
      const bobToken = (await rotateFeedToken(t.db, bob)).token;
      const bobFeed = events((await renderFeed(t.db, `${bobToken}.ics`, NOW)) as string);
      assert.deepEqual([...bobFeed.keys()], [bookingUid(ids.bob as string)]);
    });

    test('events that ended long ago drop out of the feed', async () => {
      const later = new Date(Date.UTC(2030, 6, 30));
      assert.equal(events((await renderFeed(t.db, `${token}.ics`, later)) as string).size, 0);
    });

    test('the route serves text/calendar, privately cached, and 404 for a wrong token', async () => {
      const g = globalThis as Record<symbol, unknown>;
      const previous = g[DB_KEY];
      g[DB_KEY] = Promise.resolve(t.db);
      try {
        const get = (segment: string) =>
          feedRoute(new Request(`http://localhost:3000/calendar/${segment}`), {
            params: Promise.resolve({ token: segment }),
          });
        const ok = await get(`${token}.ics`);
        assert.equal(ok.status, 200);
        assert.equal(ok.headers.get('content-type'), 'text/calendar; charset=utf-8');
        assert.equal(ok.headers.get('cache-control'), 'private, max-age=300');
        assert.match(await ok.text(), new RegExp(`UID:${bookingUid(ids.live as string)}`));
        const missing = await get(`${'B'.repeat(43)}.ics`);
        assert.equal(missing.status, 404);
        assert.equal(missing.headers.get('cache-control'), 'no-store');
        assert.equal((await get('garbage')).status, 404);
      } finally {
        g[DB_KEY] = previous;
      }
    });
  });
}
