// listBookings' JSON built by the database, and concurrent writes on one host's overlapping times.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { AccountId } from '../../lib/api-keys/auth';
import { createBooking } from '../../lib/bookings/create';
import { BOOKING_COLUMNS, type BookingRecord, listBookingsJson, toBooking } from '../../lib/bookings/queries';
import { changeBookingStatus } from '../../lib/bookings/update';
import { ApiError } from '../../lib/http/errors';
import { type ImportResult, importDocument } from '../../lib/import/import';
import { backends, type TestDb } from '../helpers/db';

const doc = {
  hosts: [
    {
      email: 'host@example.com',
      username: 'host',
      timezone: 'Asia/Kathmandu',
      pages: [
        {
          slug: 'direct',
          title: 'Direct',
          duration_minutes: 30,
          booking_type: 'direct',
          auto_generate_meet_link: true,
        },
        { slug: 'approval', title: 'Approval', duration_minutes: 30, booking_type: 'approval' },
      ],
    },
    {
      email: 'other@example.com',
      username: 'other',
      timezone: 'UTC',
      pages: [{ slug: 'direct', title: 'Other', duration_minutes: 30 }],
    },
  ],
};

for (const backend of backends) {
  describe(`bookings queries on ${backend.name}`, () => {
    let t: TestDb;
    let host: ImportResult['hosts'][string];
    let other: ImportResult['hosts'][string];
    before(async () => {
      t = await backend.open();
      const seeded = await t.db.transaction((tx) => importDocument(tx, doc));
      host = seeded.hosts.host as typeof host;
      other = seeded.hosts.other as typeof other;
    });
    after(() => t?.drop());

    const book = (owner: typeof host, slug: string, start: Date, minutes: number, guestName = 'Guest') =>
      createBooking(
        t.db,
        { accountId: owner.id, requireOfferedSlot: false },
        {
          bookingPageId: owner.pages[slug]?.id as string,
          guestName,
          guestEmail: `g${start.getTime()}@example.com`,
          start,
          end: new Date(start.getTime() + minutes * 60_000),
          responses: [],
        },
      );

    test('listBookingsJson is byte for byte the JSON of toBooking() of the same rows, for every filter', async () => {
      // Odd text, milliseconds, sub-millisecond created_at (now()), null and set sync times, a cancellation reason.
      await book(host, 'direct', new Date('2031-03-01T10:00:00.123Z'), 30, 'Zoë "Q" \\ 👩‍💻 O’Brien </script>');
      await book(host, 'approval', new Date('2031-03-02T20:59:59.999Z'), 45);
      const cancelled = await book(host, 'direct', new Date('2031-03-03T00:00:00.000Z'), 30);
      await changeBookingStatus(t.db, host.id as AccountId, cancelled.id, 'cancelled', 'Line 1\nLine 2\t"tab"');
      await book(other, 'direct', new Date('2031-03-01T10:00:00.000Z'), 30);

      const expected = async (status: string | null, limit: number) => {
        const { rows } = await t.db.query<BookingRecord>(
          `select ${BOOKING_COLUMNS} from bookings where user_id = $1 and ($2::text is null or status = $2)
           order by start_time desc, id desc limit $3`,
          [host.id, status, limit],
        );
        return JSON.stringify(rows.map(toBooking));
      };
      for (const [status, limit] of [
        [null, 200],
        [null, 2],
        ['confirmed', 200],
        ['pending', 200],
        ['cancelled', 1],
        ['completed', 200],
      ] as const) {
        const json = await listBookingsJson(t.db, host.id as AccountId, { status, limit });
        assert.equal(json, await expected(status, limit), `status=${status} limit=${limit}`);
      }
      const all = JSON.parse(await listBookingsJson(t.db, host.id as AccountId, { status: null, limit: 200 }));
      assert.equal(all.length, 3, 'only the account’s bookings');
      assert.equal(all[0].start_time, '2031-03-03T00:00:00.000+00:00');
      assert.equal(all[2].guest_name, 'Zoë "Q" \\ 👩‍💻 O’Brien </script>');
      assert.equal(await listBookingsJson(t.db, other.id as AccountId, { status: 'pending', limit: 5 }), '[]');
    });

    test('concurrent bookings of overlapping times: exactly one per time, the rest the spec’s 409', async () => {
      // Ten overlapping 30-minute intervals 5 minutes apart, each asked for five times at once.
      const base = Date.UTC(2031, 4, 1, 9);
      const attempts = Array.from({ length: 50 }, (_, i) =>
        book(host, i % 2 ? 'direct' : 'approval', new Date(base + (i % 10) * 5 * 60_000), 30).then(
          () => 'created',
          (error: unknown) => {
            if (error instanceof ApiError && error.status === 409) return 'conflict';
            throw error;
          },
        ),
      );
      const outcomes = await Promise.all(attempts);
      assert.ok(outcomes.includes('created'));
      const { rows } = await t.db.query<{ n: number }>(
        `select count(*)::int as n from bookings a join bookings b on a.id < b.id and a.user_id = b.user_id
         where a.user_id = $1 and a.status in ('pending', 'confirmed') and b.status in ('pending', 'confirmed')
           and tstzrange(a.start_time, a.end_time) && tstzrange(b.start_time, b.end_time)`,
        [host.id],
      );
      assert.equal(rows[0]?.n, 0);
    });
  });
}
