// The rules the database itself holds, proven on PGlite and on Postgres with the same migrations.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { hashKey } from '../../lib/api-keys/keys';
import { loadMigrations, migrate } from '../../lib/db/migrate';
import { type ImportResult, importDocument } from '../../lib/import/import';
import { backends, sqlState, type TestDb } from '../helpers/db';
import { exampleDocument } from '../helpers/fixtures';

for (const backend of backends) {
  describe(`schema on ${backend.name}`, () => {
    let t: TestDb;
    let ada: ImportResult['hosts'][string];
    let bob: ImportResult['hosts'][string];

    before(async () => {
      t = await backend.open();
      const doc = exampleDocument();
      const second = structuredClone(doc.hosts[0]) as (typeof doc.hosts)[number];
      Object.assign(second, { email: 'bob@example.com', username: 'bob', api_keys: [], calendar_events: [] });
      const result = await t.db.transaction((tx) => importDocument(tx, { hosts: [...doc.hosts, second] }));
      ada = result.hosts.ada as typeof ada;
      bob = result.hosts.bob as typeof bob;
    });
    after(() => t?.drop());

    const adaPage = () => ada.pages.intro?.id as string;
    const insertBooking = (start: string, end: string, status = 'confirmed', host = ada, pageId = adaPage()) =>
      t.db.query(
        `insert into bookings (booking_page_id, user_id, guest_name, guest_email, start_time, end_time, status)
         values ($1, $2, 'Guest', 'guest@example.com', $3, $4, $5) returning id`,
        [pageId, host.id, start, end, status],
      );

    test('migrations are recorded and never run twice', async () => {
      const { rows } = await t.db.query<{ version: string }>('select version from schema_migrations order by version');
      assert.deepEqual(
        rows.map((row) => row.version),
        loadMigrations().map((migration) => migration.version),
      );
      assert.deepEqual(await migrate(t.db), []);
    });

    test('overlapping pending/confirmed bookings of one host are rejected with 23P01', async () => {
      await insertBooking('2030-01-07T10:00:00Z', '2030-01-07T10:30:00Z');
      assert.equal(await sqlState(insertBooking('2030-01-07T10:15:00Z', '2030-01-07T10:45:00Z')), '23P01');
      assert.equal(await sqlState(insertBooking('2030-01-07T09:00:00Z', '2030-01-07T12:00:00Z', 'pending')), '23P01');
    });

    test('back-to-back bookings are accepted (half-open ranges)', async () => {
      await insertBooking('2030-01-08T10:00:00Z', '2030-01-08T10:30:00Z');
      await insertBooking('2030-01-08T10:30:00Z', '2030-01-08T11:00:00Z', 'pending');
      await insertBooking('2030-01-08T09:30:00Z', '2030-01-08T10:00:00Z');
    });

    test('a cancelled booking frees its time, and cancelled ones may overlap each other', async () => {
      const { rows } = await insertBooking('2030-01-09T10:00:00Z', '2030-01-09T11:00:00Z');
      await t.db.query(`update bookings set status = 'cancelled' where id = $1`, [rows[0]?.id]);
      await insertBooking('2030-01-09T10:00:00Z', '2030-01-09T11:00:00Z', 'cancelled');
      await insertBooking('2030-01-09T10:00:00Z', '2030-01-09T11:00:00Z', 'confirmed');
      // Re-confirming the cancelled one now collides with the booking that took its time.
      assert.equal(
        await sqlState(t.db.query(`update bookings set status = 'confirmed' where id = $1`, [rows[0]?.id])),
        '23P01',
      );
    });

    test('two hosts may have bookings at the same time', async () => {
      await insertBooking('2030-01-10T10:00:00Z', '2030-01-10T11:00:00Z', 'confirmed', ada);
      await insertBooking('2030-01-10T10:00:00Z', '2030-01-10T11:00:00Z', 'confirmed', bob, bob.pages.intro?.id);
    });

    test('a booking must end after it starts and must use its page host', async () => {
      assert.equal(await sqlState(insertBooking('2030-01-11T10:00:00Z', '2030-01-11T10:00:00Z')), '23514');
      assert.equal(
        await sqlState(insertBooking('2030-01-11T10:00:00Z', '2030-01-11T11:00:00Z', 'confirmed', bob, adaPage())),
        '23503',
      );
    });

    test('updated_at moves on every update', async () => {
      const { rows } = await insertBooking('2030-01-12T10:00:00Z', '2030-01-12T11:00:00Z');
      const id = rows[0]?.id;
      const before = await t.db.query<{ updated_at: Date }>('select updated_at from bookings where id = $1', [id]);
      await new Promise((resolve) => setTimeout(resolve, 5));
      const updated = await t.db.query<{ updated_at: Date }>(
        `update bookings set status = 'cancelled' where id = $1 returning updated_at`,
        [id],
      );
      assert.ok((updated.rows[0]?.updated_at as Date) > (before.rows[0]?.updated_at as Date));
    });

    const insertPage = (slug: string, host = ada) =>
      t.db.query(
        `insert into booking_pages (user_id, slug, title, duration_minutes, availability_set_id)
         values ($1, $2, 'T', 30, $3)`,
        [host.id, slug, Object.values(host.availability)[0]],
      );

    test('slug format is checked by the database', async () => {
      for (const bad of ['Intro', 'a--b', '-a', 'a-', 'a_b', 'a b', '', 'é']) {
        assert.equal(await sqlState(insertPage(bad)), '23514', `slug ${JSON.stringify(bad)}`);
      }
      await insertPage('good-slug-2');
    });

    test('slugs are unique per account, not globally', async () => {
      assert.equal(await sqlState(insertPage('intro', ada)), '23505');
      await insertPage('only-bob', bob);
      await insertPage('only-bob', ada);
    });

    test("a page cannot use another account's availability set", async () => {
      const state = await sqlState(
        t.db.query(
          `insert into booking_pages (user_id, slug, title, duration_minutes, availability_set_id)
           values ($1, 'stolen-set', 'T', 30, $2)`,
          [ada.id, Object.values(bob.availability)[0]],
        ),
      );
      assert.equal(state, '23503');
    });

    test("an answer to another page's question is rejected", async () => {
      const { rows } = await insertBooking('2030-01-13T10:00:00Z', '2030-01-13T11:00:00Z');
      const insertAnswer = (questionId: string | undefined) =>
        t.db.query(
          'insert into meeting_responses (booking_id, booking_page_id, question_id, answer) values ($1, $2, $3, $4)',
          [rows[0]?.id, adaPage(), questionId, 'a'],
        );
      assert.equal(await sqlState(insertAnswer(bob.pages.intro?.questions[0])), '23503');
      await insertAnswer(ada.pages.intro?.questions[0]);
    });

    test("a key's secret is not stored, only its SHA-256", async () => {
      const { rows } = await t.db.query<{ row: string; secret_hash: string; name: string }>(
        'select row_to_json(k)::text as row, secret_hash, name from api_keys k where account_id = $1',
        [ada.id],
      );
      assert.equal(rows.length, 5);
      for (const row of rows) {
        const key = ada.api_keys[row.name] as string;
        assert.ok(!row.row.includes(key.slice(11)), `${row.name}: secret body found in the row`);
        assert.equal(row.secret_hash, hashKey(key));
      }
    });

    test('a publishable key can never hold bookings:read or bookings:write', async () => {
      const state = await sqlState(
        t.db.query(
          `insert into api_keys (account_id, name, type, scopes, secret_hash, prefix)
           values ($1, 'bad', 'publishable', array['bookings:read'], repeat('a', 64), 'service_pk_x')`,
          [ada.id],
        ),
      );
      assert.equal(state, '23514');
    });

    test('time zones must be IANA names', async () => {
      const insert = (tz: string) =>
        t.db.query(`insert into accounts (email, username, timezone) values ($1, $2, $3)`, [
          `${tz.length}x@example.com`,
          `tz${tz.length}`,
          tz,
        ]);
      assert.equal(await sqlState(insert('Mars/Olympus_Mons')), '23514');
      const reserved = t.db.query(`insert into accounts (email, username) values ('r@example.com', 'calendar')`);
      assert.equal(await sqlState(reserved), '23514', 'a username that a top-level route would shadow');
      assert.equal(await sqlState(insert('UTC+3')), '23514');
      await insert('Asia/Kathmandu');
    });
  });
}
