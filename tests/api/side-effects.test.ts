// The spec's state table, row by row, with what else happens: outbox emails (and the .eml files the dispatcher
// writes), the local calendar event and meeting link, and the sync fields.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { tempDataDir } from '../helpers/db';
import { apiDocument } from '../helpers/fixtures';
import { BACKENDS, startServer, type TestServer } from '../helpers/server';

function document() {
  const doc = apiDocument();
  const ada = doc.hosts[0] as (typeof doc.hosts)[number];
  // An approval page that also wants meeting links: the event comes at confirmation.
  (ada.pages as Record<string, unknown>[]).push({
    slug: 'approval-meet',
    title: 'Approval meet',
    duration_minutes: 30,
    booking_type: 'approval',
    auto_generate_meet_link: true,
  });
  return doc;
}

/** A future time on its own day per test, far from other tests' bookings. */
function slot(daysAhead: number, hourUtc = 15) {
  const start = new Date(Date.now() + daysAhead * 86_400_000);
  start.setUTCHours(hourUtc, 0, 0, 0);
  return { startTime: start.toISOString(), endTime: new Date(start.getTime() + 30 * 60_000).toISOString() };
}

for (const backend of BACKENDS) {
  describe(`side effects on ${backend}`, () => {
    let server: TestServer;
    let mailDir: string;
    let secret: string;
    const headers = () => ({ authorization: `Bearer ${secret}`, 'content-type': 'application/json' });

    before(async () => {
      mailDir = tempDataDir();
      server = await startServer(backend, document(), { MAIL_DIR: mailDir, EMAIL_DISPATCH_INTERVAL_MS: '200' });
      secret = server.seed.hosts.ada?.api_keys.secret as string;
    });
    after(async () => {
      await server?.stop();
      fs.rmSync(mailDir, { recursive: true, force: true });
    });

    const book = async (page: string, when: ReturnType<typeof slot>, email: string) => {
      const response = await fetch(`${server.api}/bookings`, {
        method: 'POST',
        headers: headers(),
        body: JSON.stringify({
          bookingPageId: server.seed.hosts.ada?.pages[page]?.id,
          guestName: 'Grace Hopper',
          guestEmail: email,
          ...when,
        }),
      });
      const body = await response.json();
      assert.equal(response.status, 201, JSON.stringify(body));
      return body.data as Record<string, unknown>;
    };
    const patch = async (id: unknown, body: unknown, method = 'PATCH') => {
      const response = await fetch(`${server.api}/bookings/${id}`, {
        method,
        headers: headers(),
        body: JSON.stringify(body),
      });
      assert.equal(response.status, 200);
      return (await response.json()).data as Record<string, unknown>;
    };
    const get = async (id: unknown) =>
      (await (await fetch(`${server.api}/bookings/${id}`, { headers: headers() })).json()).data as Record<
        string,
        unknown
      >;

    /** The .eml files delivered to an address (the dispatcher runs every 200 ms in the server). */
    async function mailTo(address: string, count: number, waitMs = 10_000): Promise<string[]> {
      const deadline = Date.now() + waitMs;
      for (;;) {
        const files = fs.existsSync(mailDir) ? fs.readdirSync(mailDir).filter((f) => f.endsWith('.eml')) : [];
        const matching = files
          .map((file) => fs.readFileSync(path.join(mailDir, file), 'utf8'))
          .filter((eml) => new RegExp(`^To: .*<?${address.replace('.', '\\.')}>?\\r?$`, 'm').test(eml));
        if (matching.length >= count || Date.now() > deadline) return matching;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    /** The MIME parts' bodies, base64-decoded, so assertions read the text a person would. */
    const decoded = (eml: string) =>
      [...eml.matchAll(/\r\n\r\n([A-Za-z0-9+/=\r\n]+?)\r\n--/g)]
        .map((match) => Buffer.from((match[1] ?? '').replace(/\r\n/g, ''), 'base64').toString('utf8'))
        .join('\n');

    test('POST on a direct page with meeting links: confirmed, event and link, guest and host emails', async () => {
      const booking = await book('intro', slot(21), 'direct-guest@example.com');
      assert.equal(booking.status, 'confirmed');
      assert.match(String(booking.ext_meet_link), /^https:\/\/meet\.jit\.si\/Booking-[0-9a-f]{32}$/);
      assert.ok(booking.ext_calendar_event_id);
      assert.equal(booking.ext_calendar_id, `local:${server.seed.hosts.ada?.id}`);
      assert.equal(booking.sync_status, 'synced');
      assert.ok(booking.last_synced_at);
      const [guestMail] = await mailTo('direct-guest@example.com', 1);
      assert.ok(guestMail, 'guest confirmation delivered');
      const text = decoded(guestMail);
      assert.match(text, /your booking is confirmed/);
      assert.match(text, /METHOD:REQUEST/);
      assert.ok(text.includes(String(booking.ext_meet_link)));
      assert.equal((await mailTo('ada@example.com', 1)).length >= 1, true, 'host notified');
      if (server.sql) {
        const events = await server.sql<{ kind: string; meet_link: string }>(
          'select kind, meet_link from calendar_events where booking_id = $1',
          [booking.id],
        );
        assert.deepEqual(events, [{ kind: 'booking', meet_link: booking.ext_meet_link }]);
        const kinds = await server.sql<{ kind: string }>(
          'select kind from email_outbox where booking_id = $1 order by kind',
          [booking.id],
        );
        assert.deepEqual(
          kinds.map((row) => row.kind),
          ['guest_confirmation', 'host_notification'],
        );
      }
    });

    test('POST on an approval page: pending, only the host is asked, no event yet', async () => {
      const booking = await book('approval-meet', slot(22), 'approval-guest@example.com');
      assert.equal(booking.status, 'pending');
      assert.equal(booking.ext_meet_link, null);
      assert.equal(booking.ext_calendar_event_id, null);
      assert.equal(booking.sync_status, 'not_synced');
      if (server.sql) {
        const kinds = await server.sql<{ kind: string; to_address: string }>(
          'select kind, to_address from email_outbox where booking_id = $1',
          [booking.id],
        );
        assert.deepEqual(kinds, [{ kind: 'host_approval_request', to_address: 'ada@example.com' }]);
      }
      // Once the host's request is delivered, the dispatcher has passed this booking: the guest got nothing.
      const hostMails = async () =>
        (await mailTo('ada@example.com', 99, 0)).filter((eml) => decoded(eml).includes('approval-guest@example.com'));
      for (let i = 0; i < 100 && (await hostMails()).length === 0; i++) await new Promise((r) => setTimeout(r, 100));
      assert.equal((await hostMails()).length, 1);
      assert.deepEqual(
        await mailTo('approval-guest@example.com', 1, 0),
        [],
        'the guest is not notified until confirmed',
      );
    });

    test('PATCH confirmed: the event and link are created, the calendar invites the guest, no service email, sync fields kept', async () => {
      const created = await book('approval-meet', slot(23), 'confirm-guest@example.com');
      const confirmed = await patch(created.id, { status: 'confirmed' });
      assert.equal(confirmed.status, 'confirmed');
      assert.match(String(confirmed.ext_meet_link), /^https:\/\/meet\.jit\.si\//);
      assert.ok(confirmed.ext_calendar_event_id);
      assert.equal(confirmed.sync_status, 'not_synced');
      assert.equal(confirmed.last_synced_at, null);
      assert.ok(String(confirmed.updated_at) > String(created.updated_at));
      const [invite] = await mailTo('confirm-guest@example.com', 1);
      assert.ok(invite);
      assert.match(decoded(invite), /METHOD:REQUEST/);
      assert.match(decoded(invite), /SEQUENCE:1/);
      if (server.sql) {
        const kinds = await server.sql<{ kind: string }>(
          'select kind from email_outbox where booking_id = $1 order by kind',
          [created.id],
        );
        assert.deepEqual(
          kinds.map((row) => row.kind),
          ['calendar_invite', 'host_approval_request'],
        );
      }
      // Confirming again does not create a second event.
      const again = await patch(created.id, { status: 'confirmed' });
      assert.equal(again.ext_calendar_event_id, confirmed.ext_calendar_event_id);
    });

    test('PATCH cancelled: the event is deleted, fields cleared, reason stored, the guest gets METHOD:CANCEL', async () => {
      const created = await book('intro', slot(24), 'cancel-guest@example.com');
      const cancelled = await patch(created.id, { status: 'cancelled', reason: 'Host is ill' });
      assert.equal(cancelled.status, 'cancelled');
      assert.equal(cancelled.cancellation_reason, 'Host is ill');
      assert.equal(cancelled.ext_calendar_event_id, null);
      assert.equal(cancelled.ext_meet_link, null);
      assert.equal(cancelled.ext_calendar_id, null);
      assert.equal(cancelled.sync_status, 'synced', 'API cancellations do not update sync_status');
      assert.equal(cancelled.last_synced_at, created.last_synced_at);
      const mails = await mailTo('cancel-guest@example.com', 2);
      assert.ok(
        mails.some((eml) => /METHOD:CANCEL/.test(decoded(eml))),
        'cancellation delivered',
      );
      if (server.sql) {
        const events = await server.sql<{ cancelled: boolean; sequence: number }>(
          'select cancelled_at is not null as cancelled, sequence from calendar_events where booking_id = $1',
          [created.id],
        );
        assert.deepEqual(events, [{ cancelled: true, sequence: 1 }]);
      }
      // The time is free again.
      await book('intro', slot(24), 'cancel-guest-2@example.com');
    });

    test('DELETE: like PATCH cancelled but never stores a reason; safe to retry', async () => {
      const created = await book('intro', slot(25), 'delete-guest@example.com');
      await patch(created.id, { status: 'cancelled', reason: 'first' });
      await patch(created.id, { status: 'confirmed' });
      const response = await fetch(`${server.api}/bookings/${created.id}`, { method: 'DELETE', headers: headers() });
      assert.deepEqual(await response.json(), { success: true });
      const again = await fetch(`${server.api}/bookings/${created.id}`, { method: 'DELETE', headers: headers() });
      assert.deepEqual(await again.json(), { success: true });
      const booking = await get(created.id);
      assert.equal(booking.status, 'cancelled');
      assert.equal(booking.cancellation_reason, null);
      assert.equal(booking.ext_calendar_event_id, null);
    });
  });
}
