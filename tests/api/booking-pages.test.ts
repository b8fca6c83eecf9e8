// listBookingPages, getBookingPage and the legacy GET /embed/booking (spec: Resources, Endpoints; README).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { apiDocument } from '../helpers/fixtures';
import { BACKENDS, startServer, type TestServer } from '../helpers/server';
import {
  assertError,
  assertStatus,
  type BookingPageDetail,
  type BookingPageItem,
  call,
  type Host,
  host,
  missingScope,
  PAGE_DETAIL_EXTRA_FIELDS,
  PAGE_ITEM_FIELDS,
  type Question,
  ROW_TS,
  type UserProfile,
} from './_client';

type PageDetail = { bookingPage: BookingPageDetail; userProfile: UserProfile; questions: Question[] };
type LegacyResult = {
  userProfile: {
    id: string;
    username: string;
    full_name: string | null;
    bio: string | null;
    avatar_url: string | null;
  };
  bookingPages: {
    id: string;
    title: string;
    slug: string;
    description: string | null;
    duration_minutes: number;
  }[];
};

const sorted = (keys: readonly string[]) => [...keys].sort();

for (const backend of BACKENDS) {
  describe(`API booking pages on ${backend}`, () => {
    let server: TestServer;
    let ada: Host;
    let bob: Host;

    before(async () => {
      server = await startServer(backend, apiDocument());
      ada = host(server, 'ada');
      bob = host(server, 'bob');
    });
    after(() => server?.stop());

    const listPages = async (key: string) => {
      const response = await call<{ data: BookingPageItem[] }>(server, 'GET', '/booking-pages', { key });
      assertStatus(response, 200, 'listBookingPages');
      assert.deepEqual(Object.keys(response.body), ['data']);
      return response.body.data;
    };

    const getPage = async (key: string, slug: string) => {
      const response = await call<{ data: PageDetail }>(server, 'GET', `/booking-pages/${slug}`, { key });
      assertStatus(response, 200, `getBookingPage ${slug}`);
      assert.deepEqual(Object.keys(response.body), ['data']);
      return response.body.data;
    };

    test('listBookingPages: all pages of the account, newest first, inactive and private included', async () => {
      for (const name of ['secret', 'publishable', 'read-only']) {
        const pages = await listPages(ada.key(name));
        assert.deepEqual(
          pages.map((page) => page.slug),
          ['buffered', 'private', 'inactive', 'approval', 'intro'],
          `${name}: newest first`,
        );
        assert.deepEqual(
          pages.map((page) => page.id),
          ['buffered', 'private', 'inactive', 'approval', 'intro'].map((slug) => ada.page(slug).id),
        );
      }
    });

    test('listBookingPages: exactly the 12 list-item fields with the seeded values', async () => {
      const pages = await listPages(ada.key('secret'));
      for (const page of pages) {
        assert.deepEqual(sorted(Object.keys(page)), sorted(PAGE_ITEM_FIELDS), `fields of ${page.slug}`);
        assert.match(page.created_at, ROW_TS, `${page.slug} created_at`);
      }
      const created = pages.map((page) => Date.parse(page.created_at));
      for (let i = 1; i < created.length; i++) {
        assert.ok((created[i - 1] as number) >= (created[i] as number), 'created_at descends');
      }
      const bySlug = new Map(pages.map((page) => [page.slug, page]));
      const { id: _id, created_at: _created, ...intro } = bySlug.get('intro') as BookingPageItem;
      assert.deepEqual(intro, {
        slug: 'intro',
        title: 'Intro',
        description: '**Hello**',
        duration_minutes: 30,
        booking_type: 'direct',
        max_days_ahead: 60,
        buffer_time_minutes: 0,
        visibility: 'public',
        auto_generate_meet_link: true,
        is_active: true,
      });
      const approval = bySlug.get('approval');
      assert.equal(approval?.booking_type, 'approval');
      assert.equal(approval?.duration_minutes, 60);
      assert.equal(approval?.description, null);
      assert.equal(bySlug.get('inactive')?.is_active, false);
      assert.equal(bySlug.get('private')?.visibility, 'private');
      assert.equal(bySlug.get('private')?.is_active, true);
      assert.equal(bySlug.get('buffered')?.buffer_time_minutes, 15);
      assert.equal(bySlug.get('buffered')?.max_days_ahead, 2);
      // README: pages default to 60 days ahead.
      assert.equal(bySlug.get('inactive')?.max_days_ahead, 60);
    });

    test("listBookingPages: a key sees only its own account's pages", async () => {
      for (const name of ['secret', 'publishable']) {
        const pages = await listPages(bob.key(name));
        assert.deepEqual(
          pages.map((page) => [page.slug, page.id, page.title, page.duration_minutes]),
          [['intro', bob.page('intro').id, 'Bob intro', 20]],
          `bob's ${name} key`,
        );
      }
    });

    test('getBookingPage: { data: { bookingPage, userProfile, questions } } with the spec fields', async () => {
      for (const name of ['secret', 'publishable', 'read-only']) {
        const detail = await getPage(ada.key(name), 'intro');
        assert.deepEqual(Object.keys(detail).sort(), ['bookingPage', 'questions', 'userProfile']);
        const page = detail.bookingPage;
        assert.deepEqual(
          sorted(Object.keys(page)),
          sorted([...PAGE_ITEM_FIELDS, ...PAGE_DETAIL_EXTRA_FIELDS]),
          'the 12 list fields plus the 6 detail fields, nothing else',
        );
        assert.equal(page.id, ada.page('intro').id);
        assert.equal(page.slug, 'intro');
        assert.equal(page.title, 'Intro');
        assert.equal(page.description, '**Hello**');
        assert.equal(page.duration_minutes, 30);
        assert.equal(page.booking_type, 'direct');
        assert.equal(page.max_days_ahead, 60);
        assert.equal(page.buffer_time_minutes, 0);
        assert.equal(page.visibility, 'public');
        assert.equal(page.auto_generate_meet_link, true);
        assert.equal(page.is_active, true);
        assert.match(page.created_at, ROW_TS);
        assert.match(page.updated_at, ROW_TS);
        assert.equal(page.user_id, ada.id);
        assert.equal(page.availability_set_id, ada.availability('Every day'));
        assert.equal(page.allowed_team_id, null);
        assert.equal(typeof page.show_access_code_prompt, 'boolean');
        assert.equal(page.show_on_profile, true);

        assert.deepEqual(detail.userProfile, {
          username: 'ada',
          full_name: 'Ada Lovelace',
          bio: 'Analyst',
          avatar_url: 'https://example.com/ada.png',
          timezone: 'America/New_York',
        });

        const [topic, other, ...rest] = detail.questions;
        assert.equal(rest.length, 0);
        assert.deepEqual(topic, {
          id: ada.page('intro').questions[0],
          question_text: 'Topic?',
          question_type: 'select',
          options: ['a', 'b'],
          is_required: true,
          order_index: 0,
        });
        assert.deepEqual(other, {
          id: ada.page('intro').questions[1],
          question_text: 'Anything else?',
          question_type: 'textarea',
          options: null,
          is_required: false,
          order_index: 1,
        });
      }
    });

    test('getBookingPage: private and approval pages open through the API; no questions is []', async () => {
      const secret = ada.key('secret');
      const privatePage = await getPage(secret, 'private');
      assert.equal(privatePage.bookingPage.id, ada.page('private').id);
      assert.equal(privatePage.bookingPage.visibility, 'private');
      assert.equal(privatePage.bookingPage.show_on_profile, false);
      assert.deepEqual(privatePage.questions, []);
      assert.ok(!('access_code' in privatePage.bookingPage), 'no access code in the response');
      assert.ok(!('access_code_hash' in privatePage.bookingPage), 'no access code hash in the response');
      const approval = await getPage(ada.key('publishable'), 'approval');
      assert.equal(approval.bookingPage.booking_type, 'approval');
      assert.equal(approval.bookingPage.duration_minutes, 60);
      assert.equal(approval.userProfile.username, 'ada');
    });

    test('getBookingPage: 404 for an unknown slug, an inactive page and a page of another account', async () => {
      const cases: [string, string][] = [
        [ada.key('secret'), 'no-such-page'],
        [ada.key('publishable'), 'no-such-page'],
        [ada.key('secret'), 'inactive'],
        [ada.key('publishable'), 'inactive'],
        [bob.key('secret'), 'approval'],
        [bob.key('publishable'), 'buffered'],
        [bob.key('secret'), 'inactive'],
      ];
      for (const [key, slug] of cases) {
        const response = await call(server, 'GET', `/booking-pages/${slug}`, { key });
        assertError(response, 404, 'Booking page not found', slug);
      }
    });

    test("getBookingPage: the slug is looked up in the key's account (ada's and bob's intro differ)", async () => {
      const adas = await getPage(ada.key('publishable'), 'intro');
      const bobs = await getPage(bob.key('publishable'), 'intro');
      assert.equal(adas.bookingPage.id, ada.page('intro').id);
      assert.equal(bobs.bookingPage.id, bob.page('intro').id);
      assert.notEqual(adas.bookingPage.id, bobs.bookingPage.id);
      assert.equal(bobs.bookingPage.title, 'Bob intro');
      assert.equal(bobs.bookingPage.duration_minutes, 20);
      assert.equal(bobs.bookingPage.user_id, bob.id);
      assert.deepEqual(bobs.userProfile, {
        username: 'bob',
        full_name: null,
        bio: null,
        avatar_url: null,
        timezone: 'Europe/Berlin',
      });
      assert.deepEqual(
        bobs.questions.map((question) => question.id),
        bob.page('intro').questions,
      );
    });

    test('legacy GET /embed/booking: the profile and its active pages shown on the profile', async () => {
      for (const key of [ada.key('secret'), ada.key('publishable'), bob.key('secret'), bob.key('publishable')]) {
        const response = await call<LegacyResult>(server, 'GET', '/embed/booking?username=ada', { key });
        assertStatus(response, 200, 'legacy ada');
        assert.deepEqual(Object.keys(response.body).sort(), ['bookingPages', 'userProfile'], 'not wrapped in data');
        assert.deepEqual(response.body.userProfile, {
          id: ada.id,
          username: 'ada',
          full_name: 'Ada Lovelace',
          bio: 'Analyst',
          avatar_url: 'https://example.com/ada.png',
        });
        // Active, public, show_on_profile, newest first (README): not inactive, not private.
        assert.deepEqual(response.body.bookingPages, [
          { id: ada.page('buffered').id, title: 'Buffered', slug: 'buffered', description: null, duration_minutes: 30 },
          { id: ada.page('approval').id, title: 'Approval', slug: 'approval', description: null, duration_minutes: 60 },
          { id: ada.page('intro').id, title: 'Intro', slug: 'intro', description: '**Hello**', duration_minutes: 30 },
        ]);
      }
      const bobs = await call<LegacyResult>(server, 'GET', '/embed/booking?username=bob', { key: ada.key('secret') });
      assertStatus(bobs, 200, 'legacy bob with ada key');
      assert.deepEqual(bobs.body, {
        userProfile: { id: bob.id, username: 'bob', full_name: null, bio: null, avatar_url: null },
        bookingPages: [
          { id: bob.page('intro').id, title: 'Bob intro', slug: 'intro', description: null, duration_minutes: 20 },
        ],
      });
    });

    test('legacy GET /embed/booking: 400 without username, 404 for an unknown user, 401 without a key', async () => {
      const key = ada.key('publishable');
      assertError(
        await call(server, 'GET', '/embed/booking', { key }),
        400,
        'Missing required `username` query param',
        'no username',
      );
      assertError(
        await call(server, 'GET', '/embed/booking?username=nobody-here', { key }),
        404,
        'User not found',
        'unknown user',
      );
      assertError(
        await call(server, 'GET', '/embed/booking?username=ada', { key: ada.key('slots-only') }),
        403,
        missingScope('booking_pages:read'),
      );
      assert.equal((await call(server, 'GET', '/embed/booking?username=ada')).status, 401);
    });
  });
}
