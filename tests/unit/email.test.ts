// iCalendar and MIME rendering: RFC rules that calendar apps and mail clients rely on, and injection safety.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { backoffSeconds } from '../../lib/email/dispatcher';
import { bookingUid, calendar, escapeText, foldLine } from '../../lib/email/ical';
import { type BookingFacts, calendarEmail, escapeHtml, newBookingEmails } from '../../lib/email/messages';
import { headerText, icsMethodOf, mailbox, toEml } from '../../lib/email/mime';

const facts: BookingFacts = {
  bookingId: '11111111-2222-4333-8444-555555555555',
  sequence: 0,
  pageTitle: 'Intro',
  hostName: 'Ada',
  hostEmail: 'ada@example.com',
  hostTimezone: 'America/New_York',
  guestName: '<script>alert(1)</script>, "Bobby"; Tables',
  guestEmail: 'guest@example.com',
  guestTimezone: 'Asia/Kolkata',
  start: new Date('2030-01-07T15:00:00Z'),
  end: new Date('2030-01-07T15:30:00Z'),
  meetLink: 'https://meet.jit.si/Booking-abc',
};

test('text values are escaped and long lines folded at 75 octets without splitting characters', () => {
  assert.equal(escapeText('a,b;c\\d\ne'), 'a\\,b\\;c\\\\d\\ne');
  const long = `SUMMARY:${'é'.repeat(60)}`;
  const folded = foldLine(long);
  for (const line of folded.split('\r\n')) assert.ok(Buffer.byteLength(line) <= 75);
  assert.equal(folded.replace(/\r\n /g, ''), long);
});

test('a direct booking sends the guest and the host an invite with a stable UID, in their own time zones', () => {
  const [guest, host] = newBookingEmails('direct', facts);
  assert.equal(guest?.kind, 'guest_confirmation');
  assert.equal(guest?.to, 'guest@example.com');
  assert.equal(host?.kind, 'host_notification');
  assert.equal(host?.to, 'ada@example.com');
  assert.match(guest?.text ?? '', /20:30-21:00 \(Asia\/Kolkata\)/);
  assert.match(host?.text ?? '', /10:00-10:30 \(America\/New_York\)/);
  for (const email of [guest, host]) {
    assert.match(email?.ics ?? '', /^METHOD:REQUEST\r$/m);
    assert.match(email?.ics ?? '', new RegExp(`^UID:${bookingUid(facts.bookingId)}\\r$`, 'm'));
    assert.match(email?.ics ?? '', /^SEQUENCE:0\r$/m);
    assert.match(email?.ics ?? '', /^DTSTART:20300107T150000Z\r$/m);
    assert.match(email?.ics ?? '', /^LOCATION:https:\/\/meet\.jit\.si\/Booking-abc\r$/m);
    assert.ok(email?.ics.endsWith('END:VCALENDAR\r\n'));
  }
});

test('guest text never becomes HTML', () => {
  const [guest] = newBookingEmails('direct', facts);
  assert.ok(!guest?.html.includes('<script>'));
  assert.ok(guest?.html.includes(escapeHtml('<script>alert(1)</script>')));
  assert.equal(escapeHtml(`<a href="x">'&`), '&#60;a href=&#34;x&#34;&#62;&#39;&#38;');
});

test('an approval page only asks the host; a cancellation is METHOD:CANCEL with a higher sequence', () => {
  const emails = newBookingEmails('approval', facts);
  assert.deepEqual(
    emails.map((email) => [email.kind, email.to]),
    [['host_approval_request', 'ada@example.com']],
  );
  const cancel = calendarEmail('cancel', { ...facts, sequence: 2 });
  assert.match(cancel.ics, /^METHOD:CANCEL\r$/m);
  assert.match(cancel.ics, /^STATUS:CANCELLED\r$/m);
  assert.match(cancel.ics, /^SEQUENCE:2\r$/m);
  assert.equal(icsMethodOf(cancel.ics), 'CANCEL');
});

test('headers cannot be injected and non-ASCII is encoded', () => {
  assert.equal(headerText('Hi\r\nBcc: evil@example.com'), 'Hi Bcc: evil@example.com');
  assert.equal(headerText('Café'), `=?UTF-8?B?${Buffer.from('Café').toString('base64')}?=`);
  assert.equal(mailbox('a@example.com', 'Ann "The" Person'), '"Ann The Person" <a@example.com>');
  const eml = toEml({
    id: 'x',
    from: 'Booking Service <b@example.com>',
    to: 'guest@example.com',
    toName: 'Evil\r\nBcc: victim@example.com',
    subject: 'Hello\nBcc: victim@example.com',
    text: 'body',
    html: '<p>body</p>',
    ics: calendar([], 'REQUEST'),
    icsMethod: 'REQUEST',
    date: new Date('2030-01-01T00:00:00Z'),
  });
  const headers = eml.split('\r\n\r\n')[0] ?? '';
  assert.ok(!/^Bcc:/im.test(headers), headers);
  assert.match(eml, /Content-Type: text\/calendar; charset=utf-8; method=REQUEST/);
  assert.match(eml, /Content-Type: multipart\/alternative/);
});

test('retries back off exponentially up to an hour', () => {
  assert.deepEqual([1, 2, 3, 4].map(backoffSeconds), [10, 20, 40, 80]);
  assert.equal(backoffSeconds(20), 3600);
});
