// Tenant isolation matrix (spec: "An API key belongs to one account and only ever sees that account's pages and
// bookings"): every endpoint, called with one account's keys on the other account's page slugs, page ids, question
// ids and booking ids, answers 404/403 (or the caller's own data where a slug exists on both accounts) and never
// shows or changes the other account's data. Both directions: bob's keys against ada's data and ada's against bob's.
// The legacy GET /embed/booking is the documented exception (any user's public profile) and is checked to show
// nothing beyond it.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { apiDocument } from '../helpers/fixtures';
import { type Instance, type PreparedDatabase, prepareDatabase, startInstance } from './_instance';
import { type Answer, isErrorBody, request } from './_scenarios';

const PAGE_NOT_FOUND = 'Booking page not found';
const BOOKING_NOT_FOUND = 'Booking not found';
const NOT_OWNER = 'This booking page does not belong to the API key owner';
const FOREIGN_QUESTION = '`responses` must only answer questions of this booking page, each once';
/** Ten days ahead: inside both intro pages' 60-day horizon, so both offer slots (09:00-17:00 every day). */
const SOON = new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10);
const missingScope = (scope: string) => `API key is missing required scope(s): ${scope}`;

type Account = {
  name: 'ada' | 'bob';
  id: string;
  secret: string;
  publishable: string;
  pages: Record<string, { id: string; questions: string[] }>;
  bookings: string[];
  guestEmails: string[];
};

type Booking = { id: string; user_id: string; status: string; updated_at: string; cancellation_reason: string | null };

describe('tenant isolation (PGlite)', () => {
  let db: PreparedDatabase;
  let server: Instance;
  const accounts = {} as Record<'ada' | 'bob', Account>;

  const call = (method: string, path: string, key: string | null, json?: unknown): Promise<Answer> =>
    request(`${server.api}${path}`, { method, key: key ?? undefined, json });

  const book = async (owner: Account, slug: string, start: string, minutes: number, tag: string): Promise<string> => {
    const guestEmail = `${owner.name}-${tag}@guests.example.com`;
    const answer = await call('POST', '/bookings', owner.secret, {
      bookingPageId: owner.pages[slug]?.id,
      guestName: `${owner.name} guest ${tag}`,
      guestEmail,
      startTime: start,
      endTime: new Date(Date.parse(start) + minutes * 60_000).toISOString(),
      responses: owner.pages[slug]?.questions.length
        ? [{ questionId: owner.pages[slug]?.questions[0], answer: 'a' }]
        : undefined,
    });
    assert.equal(answer.status, 201, answer.text);
    owner.guestEmails.push(guestEmail);
    return (answer.body as { data: { id: string } }).data.id;
  };

  before(async () => {
    db = await prepareDatabase('pglite', apiDocument());
    server = await startInstance(db.env);
    for (const name of ['ada', 'bob'] as const) {
      const seeded = db.seed.hosts[name];
      assert.ok(seeded);
      accounts[name] = {
        name,
        id: seeded.id,
        secret: seeded.api_keys.secret as string,
        publishable: seeded.api_keys.publishable as string,
        pages: seeded.pages,
        bookings: [],
        guestEmails: [],
      };
    }
    const { ada, bob } = accounts;
    // ada: a confirmed booking with an answer, a pending one (approval page), a cancelled one; bob: a confirmed one.
    ada.bookings.push(await book(ada, 'intro', '2031-03-03T15:00:00Z', 30, 'confirmed'));
    ada.bookings.push(await book(ada, 'approval', '2031-03-04T15:00:00Z', 60, 'pending'));
    const cancelled = await book(ada, 'intro', '2031-03-05T15:00:00Z', 30, 'cancelled');
    assert.equal((await call('DELETE', `/bookings/${cancelled}`, ada.secret)).status, 200);
    ada.bookings.push(cancelled);
    bob.bookings.push(await book(bob, 'intro', '2031-03-03T15:00:00Z', 20, 'confirmed'));
  });

  after(async () => {
    await server?.stop();
    await db?.drop();
  });

  /** Everything of `owner` that must not appear in a response to another account (ids, guest addresses). */
  const secretsOf = (owner: Account) => [
    owner.id,
    ...Object.values(owner.pages).flatMap((page) => [page.id, ...page.questions]),
    ...owner.bookings,
    ...owner.guestEmails,
  ];

  const assertNoLeak = (answer: Answer, owner: Account, context: string) => {
    for (const value of secretsOf(owner)) {
      assert.ok(!answer.text.includes(value), `${context}: the answer shows ${owner.name}'s ${value}: ${answer.text}`);
    }
  };

  const assertError = (answer: Answer, status: number, message: string, context: string) => {
    assert.equal(answer.status, status, `${context}: ${answer.status} ${answer.text}`);
    assert.ok(isErrorBody(answer), `${context}: ${answer.text}`);
    assert.equal((answer.body as { error: string }).error, message, context);
  };

  for (const [ownerName, intruderName] of [
    ['ada', 'bob'],
    ['bob', 'ada'],
  ] as const) {
    describe(`${intruderName}'s keys on ${ownerName}'s data`, () => {
      const pair = () => ({ owner: accounts[ownerName], intruder: accounts[intruderName] });

      test('getBookingPage and listSlots: 404 for the other account’s slugs and page ids', async () => {
        const { owner, intruder } = pair();
        const ownSlugs = new Set(Object.keys(intruder.pages));
        for (const key of [intruder.secret, intruder.publishable]) {
          for (const [slug, page] of Object.entries(owner.pages)) {
            for (const target of ownSlugs.has(slug) ? [page.id] : [slug, page.id]) {
              const detail = await call('GET', `/booking-pages/${target}`, key);
              assertError(detail, 404, PAGE_NOT_FOUND, `GET /booking-pages/${target}`);
              const slots = await call('GET', `/booking-pages/${target}/slots?date=2031-03-03`, key);
              assertError(slots, 404, PAGE_NOT_FOUND, `GET /booking-pages/${target}/slots`);
            }
          }
        }
      });

      test('a slug both accounts have gives the caller’s own page and slots, never the other’s', async () => {
        const { owner, intruder } = pair();
        for (const slug of Object.keys(owner.pages).filter((s) => s in intruder.pages)) {
          for (const key of [intruder.secret, intruder.publishable]) {
            const detail = await call('GET', `/booking-pages/${slug}`, key);
            assert.equal(detail.status, 200, detail.text);
            const page = (detail.body as { data: { bookingPage: { id: string; user_id: string } } }).data.bookingPage;
            assert.equal(page.id, intruder.pages[slug]?.id);
            assert.equal(page.user_id, intruder.id);
            assertNoLeak(detail, owner, `GET /booking-pages/${slug}`);
            const slots = await call('GET', `/booking-pages/${slug}/slots?date=${SOON}`, key);
            assert.equal(slots.status, 200, slots.text);
            assertNoLeak(slots, owner, `GET /booking-pages/${slug}/slots`);
            // ada's intro slots are 30 minutes, bob's 20: the caller's page decides.
            const lengths = new Set(
              (slots.body as { data: { start: string; end: string }[] }).data.map(
                (s) => (Date.parse(s.end) - Date.parse(s.start)) / 60_000,
              ),
            );
            assert.deepEqual(
              [...lengths],
              [intruder.name === 'ada' ? 30 : 20],
              `slot length of ${intruder.name}'s page`,
            );
          }
        }
      });

      test('listBookingPages shows only the caller’s pages', async () => {
        const { owner, intruder } = pair();
        for (const key of [intruder.secret, intruder.publishable]) {
          const list = await call('GET', '/booking-pages', key);
          assert.equal(list.status, 200, list.text);
          const ids = (list.body as { data: { id: string }[] }).data.map((page) => page.id).sort();
          assert.deepEqual(
            ids,
            Object.values(intruder.pages)
              .map((page) => page.id)
              .sort(),
          );
          assertNoLeak(list, owner, 'GET /booking-pages');
        }
      });

      test('createBooking on the other account’s pages: 403, and nothing is booked', async () => {
        const { owner, intruder } = pair();
        let n = 0;
        for (const key of [intruder.secret, intruder.publishable]) {
          for (const [slug, page] of Object.entries(owner.pages)) {
            n += 1;
            const answer = await call('POST', '/bookings', key, {
              bookingPageId: page.id,
              guestName: 'Intruder',
              guestEmail: `intruder-${intruder.name}-${n}@example.com`,
              startTime: '2031-04-01T15:00:00Z',
              endTime: '2031-04-01T15:30:00Z',
            });
            assertError(answer, 403, NOT_OWNER, `POST /bookings on ${owner.name}'s ${slug}`);
          }
        }
        const list = await call('GET', '/bookings?limit=200', owner.secret);
        const owned = (list.body as { data: Booking[] }).data;
        assert.deepEqual(owned.map((b) => b.id).sort(), [...owner.bookings].sort(), `${owner.name} has no new booking`);
      });

      test('createBooking on the caller’s page with the other account’s question ids: 400, nothing saved', async () => {
        const { owner, intruder } = pair();
        const foreign = Object.values(owner.pages).flatMap((page) => page.questions);
        const page = intruder.pages.intro;
        assert.ok(page && foreign.length > 0);
        for (const [i, questionId] of foreign.entries()) {
          const answer = await call('POST', '/bookings', intruder.secret, {
            bookingPageId: page.id,
            guestName: 'Mixer',
            guestEmail: `mixer-${intruder.name}-${i}@example.com`,
            startTime: `2031-05-0${1 + (i % 9)}T15:00:00Z`,
            endTime: `2031-05-0${1 + (i % 9)}T15:20:00Z`,
            responses: [{ questionId, answer: 'a' }],
          });
          assertError(answer, 400, FOREIGN_QUESTION, `POST /bookings answering ${owner.name}'s question`);
        }
      });

      test('getBooking, updateBooking, cancelBooking of the other account’s bookings: 404 (403 for publishable)', async () => {
        const { owner, intruder } = pair();
        const before = new Map<string, Booking>();
        for (const id of owner.bookings) {
          before.set(id, ((await call('GET', `/bookings/${id}`, owner.secret)).body as { data: Booking }).data);
        }
        for (const id of owner.bookings) {
          const attempts: [string, unknown][] = [
            ['GET', undefined],
            ['PATCH', { status: 'confirmed' }],
            ['PATCH', { status: 'cancelled', reason: 'not yours' }],
            ['DELETE', undefined],
          ];
          for (const [method, body] of attempts) {
            const secret = await call(method, `/bookings/${id}`, intruder.secret, body);
            assertError(
              secret,
              404,
              BOOKING_NOT_FOUND,
              `${method} ${owner.name}'s booking with ${intruder.name}'s secret key`,
            );
            const publishable = await call(method, `/bookings/${id}`, intruder.publishable, body);
            const scope = method === 'GET' ? 'bookings:read' : 'bookings:write';
            assertError(publishable, 403, missingScope(scope), `${method} with ${intruder.name}'s publishable key`);
          }
        }
        for (const id of owner.bookings) {
          const now = ((await call('GET', `/bookings/${id}`, owner.secret)).body as { data: Booking }).data;
          const was = before.get(id) as Booking;
          assert.deepEqual(
            { status: now.status, updated_at: now.updated_at, reason: now.cancellation_reason },
            { status: was.status, updated_at: was.updated_at, reason: was.cancellation_reason },
            `${owner.name}'s booking ${id} is unchanged`,
          );
        }
      });

      test('listBookings shows only the caller’s bookings, for every status filter', async () => {
        const { owner, intruder } = pair();
        for (const query of ['', '?limit=200', '?status=confirmed', '?status=pending', '?status=cancelled']) {
          const list = await call('GET', `/bookings${query}`, intruder.secret);
          assert.equal(list.status, 200, list.text);
          const bookings = (list.body as { data: Booking[] }).data;
          assert.ok(
            bookings.every((b) => b.user_id === intruder.id),
            `GET /bookings${query}: only ${intruder.name}'s`,
          );
          assertNoLeak(list, owner, `GET /bookings${query}`);
        }
        const all = ((await call('GET', '/bookings?limit=200', intruder.secret)).body as { data: Booking[] }).data;
        assert.deepEqual(all.map((b) => b.id).sort(), [...intruder.bookings].sort());
        assertError(
          await call('GET', '/bookings', intruder.publishable),
          403,
          missingScope('bookings:read'),
          'publishable',
        );
      });

      test('the legacy embed shows the other account’s public profile and nothing more', async () => {
        const { owner, intruder } = pair();
        const embed = await call('GET', `/embed/booking?username=${owner.name}`, intruder.publishable);
        assert.equal(embed.status, 200, embed.text);
        const body = embed.body as {
          userProfile: Record<string, unknown>;
          bookingPages: { id: string; slug: string }[];
        };
        assert.deepEqual(Object.keys(body.userProfile).sort(), ['avatar_url', 'bio', 'full_name', 'id', 'username']);
        // Only active public pages shown on the profile: not ada's private, inactive or hidden ones.
        const visible = owner.name === 'ada' ? ['approval', 'buffered', 'intro'] : ['intro'];
        assert.deepEqual(body.bookingPages.map((page) => page.slug).sort(), visible);
        for (const value of [...owner.bookings, ...owner.guestEmails, `${owner.name}@example.com`]) {
          assert.ok(!embed.text.includes(value), `the embed shows no ${value}`);
        }
      });
    });
  }

  test('ada’s revoked and expired keys see nothing', async () => {
    const ada = accounts.ada;
    const keys = db.seed.hosts.ada?.api_keys ?? {};
    for (const [name, message] of [
      ['revoked', 'API key has been revoked'],
      ['expired', 'API key has expired'],
    ] as const) {
      for (const path of ['/booking-pages', '/booking-pages/intro', `/bookings/${ada.bookings[0]}`, '/bookings']) {
        assertError(await call('GET', path, keys[name] as string), 401, message, `GET ${path} with the ${name} key`);
      }
    }
  });
});
