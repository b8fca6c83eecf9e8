// The outbox and its dispatcher on both databases: transactional enqueue, delivery once, retries with backoff,
// crash recovery, and both transports (files, and Resend through a local stand-in of its HTTP API).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { dispatchDue, MAX_ATTEMPTS } from '../../lib/email/dispatcher';
import { type Email, newBookingEmails } from '../../lib/email/messages';
import { enqueueEmails } from '../../lib/email/outbox';
import { fileTransport, resendTransport, type Transport } from '../../lib/email/transport';
import { backends, type TestDb, tempDataDir } from '../helpers/db';
import { startResendStandIn } from '../helpers/resend-server';

const emails: Email[] = newBookingEmails('direct', {
  bookingId: '11111111-2222-4333-8444-555555555555',
  sequence: 0,
  pageTitle: 'Intro',
  hostName: 'Ada',
  hostEmail: 'ada@example.com',
  hostTimezone: 'Europe/Berlin',
  guestName: 'Grace',
  guestEmail: 'grace@example.com',
  guestTimezone: null,
  start: new Date('2030-01-07T10:00:00Z'),
  end: new Date('2030-01-07T10:30:00Z'),
  meetLink: null,
});

const failing: Transport = {
  name: 'file',
  async send() {
    throw new Error('smtp down');
  },
};

for (const backend of backends) {
  describe(`email outbox on ${backend.name}`, () => {
    let t: TestDb;
    before(async () => {
      t = await backend.open();
    });
    after(() => t?.drop());

    const outbox = async () =>
      (
        await t.db.query<{
          id: string;
          status: string;
          attempts: number;
          due_later: boolean;
          last_error: string | null;
        }>(
          `select id, status, attempts, next_attempt_at > now() as due_later, last_error from email_outbox order by created_at, kind`,
        )
      ).rows;
    const reset = () => t.db.query('delete from email_outbox');

    test('a rolled-back change leaves no email behind', async () => {
      await reset();
      await assert.rejects(
        t.db.transaction(async (tx) => {
          await enqueueEmails(tx, null, emails);
          throw new Error('booking failed');
        }),
      );
      assert.deepEqual(await outbox(), []);
    });

    test('due messages are written as .eml files once and marked sent', async () => {
      await reset();
      await t.db.transaction((tx) => enqueueEmails(tx, null, emails));
      const dir = tempDataDir();
      assert.deepEqual(await dispatchDue(t.db, fileTransport(dir)), { sent: 2, failed: 0 });
      assert.deepEqual(await dispatchDue(t.db, fileTransport(dir)), { sent: 0, failed: 0 });
      const rows = await outbox();
      assert.deepEqual(
        rows.map((row) => row.status),
        ['sent', 'sent'],
      );
      const files = fs.readdirSync(dir).sort();
      assert.deepEqual(files, rows.map((row) => `${row.id}.eml`).sort());
      const eml = fs.readFileSync(path.join(dir, files[0] as string), 'utf8');
      assert.match(eml, /^From: Booking Service/m);
      assert.match(eml, /text\/calendar; charset=utf-8; method=REQUEST/);
      fs.rmSync(dir, { recursive: true, force: true });
    });

    test('a failed send is retried later with backoff and given up after the last attempt', async () => {
      await reset();
      await t.db.transaction((tx) => enqueueEmails(tx, null, emails.slice(0, 1)));
      assert.deepEqual(await dispatchDue(t.db, failing), { sent: 0, failed: 1 });
      let [row] = await outbox();
      assert.equal(row?.status, 'pending');
      assert.equal(row?.attempts, 1);
      assert.equal(row?.due_later, true);
      assert.equal(row?.last_error, 'smtp down');
      // Not due yet: nothing is attempted.
      assert.deepEqual(await dispatchDue(t.db, failing), { sent: 0, failed: 0 });
      for (let attempt = 2; attempt <= MAX_ATTEMPTS; attempt++) {
        await t.db.query('update email_outbox set next_attempt_at = now()');
        await dispatchDue(t.db, failing);
      }
      [row] = await outbox();
      assert.equal(row?.status, 'failed');
      assert.equal(row?.attempts, MAX_ATTEMPTS);
    });

    test('a row claimed by a dispatcher that crashed is taken over once its claim expires', async () => {
      await reset();
      await t.db.transaction((tx) => enqueueEmails(tx, null, emails.slice(0, 1)));
      await t.db.query(`update email_outbox set locked_until = now() + interval '1 minute', attempts = 1`);
      const dir = tempDataDir();
      assert.deepEqual(await dispatchDue(t.db, fileTransport(dir)), { sent: 0, failed: 0 });
      await t.db.query(`update email_outbox set locked_until = now() - interval '1 second'`);
      assert.deepEqual(await dispatchDue(t.db, fileTransport(dir)), { sent: 1, failed: 0 });
      fs.rmSync(dir, { recursive: true, force: true });
    });

    test('Resend: the SDK posts each row once with its idempotency key; a 500 is retried', async () => {
      await reset();
      const resend = await startResendStandIn();
      const previous = process.env.RESEND_BASE_URL;
      process.env.RESEND_BASE_URL = resend.url;
      try {
        await t.db.transaction((tx) => enqueueEmails(tx, null, emails));
        resend.failNext(1);
        const transport = resendTransport('re_test_key');
        assert.deepEqual(await dispatchDue(t.db, transport), { sent: 1, failed: 1 });
        await t.db.query(`update email_outbox set next_attempt_at = now() where status = 'pending'`);
        assert.deepEqual(await dispatchDue(t.db, transport), { sent: 1, failed: 0 });
        const rows = await outbox();
        assert.deepEqual(
          rows.map((row) => row.status),
          ['sent', 'sent'],
        );
        assert.equal(resend.delivered.size, 2);
        const request = resend.received.at(-1);
        assert.equal(request?.headers.authorization, 'Bearer re_test_key');
        assert.match(String(request?.headers['idempotency-key']), /^outbox-[0-9a-f-]{36}$/);
        const attachments = request?.body.attachments as { filename: string; content: string }[];
        assert.equal(attachments[0]?.filename, 'invite.ics');
        assert.match(Buffer.from(attachments[0]?.content ?? '', 'base64').toString(), /BEGIN:VCALENDAR/);
        const stored = await t.db.query<{ provider_message_id: string }>(
          `select provider_message_id from email_outbox order by created_at, kind`,
        );
        assert.deepEqual(
          new Set(stored.rows.map((row) => row.provider_message_id)),
          new Set(resend.delivered.values()),
        );
      } finally {
        if (previous === undefined) delete process.env.RESEND_BASE_URL;
        else process.env.RESEND_BASE_URL = previous;
        await resend.close();
      }
    });
  });
}
