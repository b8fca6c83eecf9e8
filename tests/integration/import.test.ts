// The admin import: one transaction, the result shape of the foundation issue, errors that name the field.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { verifyPassword } from '../../lib/auth/password';
import { ImportError, importDocument } from '../../lib/import/import';
import { backends, type TestDb } from '../helpers/db';
import { exampleDocument } from '../helpers/fixtures';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

for (const backend of backends) {
  describe(`import on ${backend.name}`, () => {
    let t: TestDb;
    before(async () => {
      t = await backend.open();
    });
    after(() => t?.drop());

    const count = async (table: string) =>
      (await t.db.query<{ n: number }>(`select count(*)::int as n from ${table}`)).rows[0]?.n;

    async function rejects(doc: unknown, field: string) {
      const before = await count('accounts');
      await assert.rejects(
        t.db.transaction((tx) => importDocument(tx, doc)),
        (error: unknown) => {
          assert.ok(error instanceof ImportError, String(error));
          assert.equal(error.field, field, error.message);
          return true;
        },
      );
      assert.equal(await count('accounts'), before, 'nothing was written');
    }

    test('the example document imports and prints the documented shape', async () => {
      const result = await t.db.transaction((tx) => importDocument(tx, exampleDocument()));
      const ada = result.hosts.ada;
      assert.ok(ada);
      assert.match(ada.id, UUID);
      assert.deepEqual(Object.keys(ada.pages), ['intro']);
      assert.match(ada.pages.intro?.id as string, UUID);
      assert.equal(ada.pages.intro?.questions.length, 1);
      assert.match(ada.availability['Working hours'] as string, UUID);
      assert.deepEqual(Object.keys(ada.api_keys), ['server', 'web', 'ro', 'old', 'gone']);
      assert.match(ada.api_keys.server as string, /^service_sk_[A-Za-z0-9_-]{43}$/);
      assert.match(ada.api_keys.web as string, /^service_pk_[A-Za-z0-9_-]{43}$/);

      const keys = await t.db.query<{ name: string; scopes: string[]; revoked: boolean; expired: boolean }>(
        `select name, scopes, revoked_at is not null as revoked, coalesce(expires_at < now(), false) as expired
         from api_keys where account_id = $1 order by created_at, name`,
        [ada.id],
      );
      const byName = Object.fromEntries(keys.rows.map((row) => [row.name, row]));
      assert.deepEqual(byName.web?.scopes, ['booking_pages:read', 'booking_pages:slots', 'bookings:create']);
      assert.equal(byName.server?.scopes.length, 5);
      assert.deepEqual(byName.ro?.scopes, ['booking_pages:read']);
      assert.equal(byName.old?.revoked, true);
      assert.equal(byName.gone?.expired, true);

      const account = await t.db.query<{ password_hash: string; timezone: string }>(
        'select password_hash, timezone from accounts where id = $1',
        [ada.id],
      );
      assert.equal(account.rows[0]?.timezone, 'America/New_York');
      assert.ok(await verifyPassword('correct horse battery', account.rows[0]?.password_hash ?? null));

      const rules = await t.db.query<{ weekday: number; start_time: string; end_time: string }>(
        'select weekday, start_time::text, end_time::text from availability_rules order by weekday, start_time',
      );
      assert.deepEqual(
        rules.rows.map((r) => `${r.weekday} ${r.start_time}-${r.end_time}`),
        ['1 09:00:00-17:00:00', '2 09:00:00-12:00:00', '2 13:00:00-17:00:00'],
      );
      const overrides = await t.db.query<{ override_date: string; start_time: string | null }>(
        'select override_date, start_time from availability_overrides',
      );
      assert.deepEqual(overrides.rows, [
        { override_date: `${new Date().getUTCFullYear() + 1}-12-24`, start_time: null },
      ]);
      const team = await t.db.query<{ name: string; account_id: string }>(
        'select t.name, m.account_id from teams t join team_members m on m.team_id = t.id',
      );
      assert.deepEqual(team.rows, [{ name: 'Sales', account_id: ada.id }]);
      const busy = await t.db.query<{ kind: string; title: string }>('select kind, title from calendar_events');
      assert.deepEqual(busy.rows, [{ kind: 'busy', title: 'Dentist' }]);
      const page = await t.db.query<{ buffer_time_minutes: number; access_code_hash: string | null }>(
        'select buffer_time_minutes, access_code_hash from booking_pages where id = $1',
        [ada.pages.intro?.id],
      );
      assert.deepEqual(page.rows[0], { buffer_time_minutes: 10, access_code_hash: null });
    });

    test('pages are created in the given order and question ids come in order_index order', async () => {
      const doc = {
        hosts: [
          {
            email: 'order@example.com',
            username: 'order',
            pages: [
              { slug: 'first', title: 'First', duration_minutes: 15 },
              {
                slug: 'second',
                title: 'Second',
                duration_minutes: 15,
                questions: [
                  { question_text: 'B', order_index: 1 },
                  { question_text: 'A', order_index: 0 },
                ],
              },
            ],
          },
        ],
      };
      const result = await t.db.transaction((tx) => importDocument(tx, doc));
      const host = result.hosts.order;
      const pages = await t.db.query<{ slug: string }>(
        'select slug from booking_pages where user_id = $1 order by created_at desc, id',
        [host?.id],
      );
      assert.deepEqual(
        pages.rows.map((row) => row.slug),
        ['second', 'first'],
      );
      const questions = await t.db.query<{ id: string; question_text: string }>(
        'select id, question_text from questions where booking_page_id = $1 order by order_index',
        [host?.pages.second?.id],
      );
      assert.deepEqual(
        host?.pages.second?.questions,
        questions.rows.map((row) => row.id),
      );
      assert.deepEqual(
        questions.rows.map((row) => row.question_text),
        ['A', 'B'],
      );
      // A host without availability gets the dashboard's default set, and its pages use it.
      assert.deepEqual(Object.keys(host?.availability ?? {}), ['Working hours']);
    });

    test('invalid documents name the bad field and write nothing', async () => {
      const base = () => exampleDocument();
      const withHost = (patch: Record<string, unknown>) => {
        const doc = base();
        Object.assign(doc.hosts[0] as object, { username: 'x1', email: 'x1@example.com' }, patch);
        return doc;
      };
      const withPage = (patch: Record<string, unknown>) => {
        const doc = withHost({});
        Object.assign(doc.hosts[0]?.pages[0] as object, patch);
        return doc;
      };
      await rejects(withPage({ slug: 'Not A Slug' }), 'hosts[0].pages[0].slug');
      await rejects(withHost({ timezone: 'Mars/Base' }), 'hosts[0].timezone');
      await rejects(withHost({ username: 'dashboard' }), 'hosts[0].username');
      await rejects(withHost({ email: 'nope' }), 'hosts[0].email');
      await rejects(withPage({ duration_minutes: 0 }), 'hosts[0].pages[0].duration_minutes');
      await rejects(withPage({ availability: 'Nights' }), 'hosts[0].pages[0].availability');
      await rejects(withPage({ visibility: 'private' }), 'hosts[0].pages[0].access_code');
      await rejects(withPage({ colour: 'red' }), 'hosts[0].pages[0]');
      await rejects(
        withHost({ api_keys: [{ name: 'p', type: 'publishable', scopes: ['bookings:read'] }] }),
        'hosts[0].api_keys[0].scopes',
      );
      const badWeekly = withHost({});
      (badWeekly.hosts[0]?.availability[0] as { weekly: unknown }).weekly = { mon: [['17:00', '09:00']] };
      await rejects(badWeekly, 'hosts[0].availability[0].weekly.mon[0]');
      // Valid document, but the username exists already: the database refuses and the field is named.
      await rejects(exampleDocument(), 'hosts[0].username');
      const unknownMember = withHost({});
      unknownMember.teams = [{ name: 'Other', members: ['nobody'] }];
      await rejects(unknownMember, 'teams[0].members[0]');
    });
  });
}
