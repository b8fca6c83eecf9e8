// Dashboard approvals, declines and cancellations: the guest is told, the event follows, the sync fields record it.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createBooking } from '../../lib/bookings/create';
import { hostActOnBooking } from '../../lib/bookings/host-actions';
import { ApiError } from '../../lib/http/errors';
import { type ImportResult, importDocument } from '../../lib/import/import';
import { backends, type TestDb } from '../helpers/db';

const doc = {
  hosts: [
    {
      email: 'host@example.com',
      username: 'host',
      timezone: 'Europe/Berlin',
      pages: [
        {
          slug: 'approval',
          title: 'Approval',
          duration_minutes: 30,
          booking_type: 'approval',
          auto_generate_meet_link: true,
        },
        { slug: 'plain', title: 'Plain', duration_minutes: 30, booking_type: 'approval' },
      ],
    },
  ],
};

for (const backend of backends) {
  describe(`dashboard host actions on ${backend.name}`, () => {
    let t: TestDb;
    let host: ImportResult['hosts'][string];
    before(async () => {
      t = await backend.open();
      host = (await t.db.transaction((tx) => importDocument(tx, doc))).hosts.host as typeof host;
    });
    after(() => t?.drop());

    let day = 40;
    const book = (slug: string) => {
      const start = new Date(Date.UTC(2030, 0, day++, 10));
      return createBooking(
        t.db,
        { accountId: host.id, requireOfferedSlot: false },
        {
          bookingPageId: host.pages[slug]?.id as string,
          guestName: 'Guest',
          guestEmail: `guest${day}@example.com`,
          start,
          end: new Date(start.getTime() + 30 * 60_000),
          responses: [],
        },
      );
    };
    const emails = async (bookingId: string) =>
      (
        await t.db.query<{ kind: string; to_address: string; ics: string }>(
          'select kind, to_address, ics from email_outbox where booking_id = $1 order by created_at, kind',
          [bookingId],
        )
      ).rows;

    test('approve: confirmed, event and link created, sync recorded, the guest is told with the link', async () => {
      const booking = await book('approval');
      const approved = await hostActOnBooking(t.db, host.id, booking.id, 'approve');
      assert.equal(approved.status, 'confirmed');
      assert.match(approved.ext_meet_link ?? '', /^https:\/\/meet\.jit\.si\//);
      assert.equal(approved.sync_status, 'synced');
      assert.ok(approved.last_synced_at);
      const sent = await emails(booking.id);
      const toGuest = sent.find((email) => email.kind === 'guest_approved');
      assert.equal(toGuest?.to_address, booking.guest_email);
      assert.ok(toGuest?.ics.includes('METHOD:REQUEST'));
    });

    test('approve on a page without meeting links records not_synced', async () => {
      const booking = await book('plain');
      const approved = await hostActOnBooking(t.db, host.id, booking.id, 'approve');
      assert.equal(approved.sync_status, 'not_synced');
      assert.ok(approved.last_synced_at);
    });

    test('decline: cancelled with the reason, the guest gets a CANCEL', async () => {
      const booking = await book('approval');
      const declined = await hostActOnBooking(t.db, host.id, booking.id, 'decline', 'Fully booked');
      assert.equal(declined.status, 'cancelled');
      assert.equal(declined.cancellation_reason, 'Fully booked');
      const mail = (await emails(booking.id)).find((email) => email.kind === 'guest_declined');
      assert.ok(mail?.ics.includes('METHOD:CANCEL'));
    });

    test('cancel after approval deletes the event and records not_synced', async () => {
      const booking = await book('approval');
      const approved = await hostActOnBooking(t.db, host.id, booking.id, 'approve');
      const cancelled = await hostActOnBooking(t.db, host.id, booking.id, 'cancel');
      assert.equal(cancelled.status, 'cancelled');
      assert.equal(cancelled.ext_calendar_event_id, null);
      assert.equal(cancelled.sync_status, 'not_synced');
      const event = await t.db.query<{ cancelled: boolean }>(
        'select cancelled_at is not null as cancelled from calendar_events where external_id = $1',
        [approved.ext_calendar_event_id],
      );
      assert.deepEqual(event.rows, [{ cancelled: true }]);
      const mail = (await emails(booking.id)).find((email) => email.kind === 'guest_cancelled');
      assert.ok(mail?.ics.includes(approved.ext_meet_link ?? 'missing link'));
    });

    test('only pending/confirmed bookings can be acted on, and only by their host', async () => {
      const booking = await book('plain');
      await hostActOnBooking(t.db, host.id, booking.id, 'decline');
      await assert.rejects(hostActOnBooking(t.db, host.id, booking.id, 'approve'), (error: unknown) => {
        return error instanceof ApiError && error.status === 409;
      });
      await assert.rejects(
        hostActOnBooking(t.db, '00000000-0000-4000-8000-000000000000', booking.id, 'cancel'),
        (error: unknown) => error instanceof ApiError && error.status === 404,
      );
    });
  });
}
