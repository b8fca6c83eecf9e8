// The guest flow of the hosted booking page in Debian's Chromium against the production build (`npm run build`
// first): pick a day and a slot, answer the questions, book; and the pages that must not open. Bookings are checked
// through the REST API, which must agree with the page about which slots exist.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { addDays } from '../../lib/hosted/calendar';
import { hostLocalDay } from '../../lib/slots/slots';
import { apiDocument } from '../helpers/fixtures';
import { type BackendName, startServer, type TestServer } from '../helpers/server';
import { BookingPage, launchChromium, newGuest } from './pages';

const HOST_TZ = 'America/New_York';
const SCRATCH = '.scratch';
// Both backends, like the integration tests; BROWSER_BACKENDS=pglite narrows the run.
const BACKENDS = (process.env.BROWSER_BACKENDS || 'pglite,postgres').split(',') as BackendName[];

/** apiDocument plus pages this flow needs: a team page and a description with Markdown and HTML in it. */
function flowDocument() {
  const doc = apiDocument();
  const ada = doc.hosts[0] as { pages: Record<string, unknown>[] };
  ada.pages.push(
    { slug: 'team', title: 'Team sync', duration_minutes: 30, visibility: 'team', allowed_team: 'Sales' },
    {
      slug: 'notes',
      title: 'Notes',
      duration_minutes: 30,
      description:
        'Read [the agenda](https://example.com/agenda) first.\n\n<script>window.__pwned = 1</script>\n\n' +
        '- [bad](javascript:window.__pwned=2)\n- `<b>code</b>`',
    },
  );
  return doc;
}

type Slot = { start: string; end: string };
type Booking = { id: string; guest_email: string; start_time: string; status: string; ext_meet_link: string | null };

/** Host-local day `days` after today. */
const hostDay = (days: number) => addDays(hostLocalDay(new Date(), HOST_TZ), days);

const berlinTime = (iso: string) =>
  new Intl.DateTimeFormat('en-US', { timeZone: 'Europe/Berlin', hour: 'numeric', minute: '2-digit' }).format(
    new Date(iso),
  );

for (const backend of BACKENDS) {
  describe(`guest flow on ${backend}`, () => {
    let server: TestServer;
    let browser: Browser;

    const api = async <T>(method: string, path: string, key: string, body?: unknown) => {
      const response = await fetch(`${server.api}${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as T };
    };
    const ada = () => server.seed.hosts.ada as (typeof server.seed.hosts)[string];
    const apiSlots = async (slug: string, day: string) =>
      (await api<{ data: Slot[] }>('GET', `/booking-pages/${slug}/slots?date=${day}`, ada().api_keys.publishable ?? ''))
        .body.data;
    const apiBookings = async () =>
      (await api<{ data: Booking[] }>('GET', '/bookings?limit=200', ada().api_keys.secret ?? '')).body.data;

    before(async () => {
      fs.mkdirSync(SCRATCH, { recursive: true });
      [server, browser] = await Promise.all([startServer(backend, flowDocument()), launchChromium()]);
    });
    after(async () => {
      await browser?.close();
      await server?.stop();
    });

    test('a guest books a slot on ada/intro; the API sees the booking and the slot is gone', async () => {
      const context = await newGuest(browser);
      const guest = await BookingPage.create(context, server.origin);
      await guest.open('/ada/intro');
      assert.equal(await guest.title.textContent(), 'Intro');
      await guest.page.getByRole('link', { name: 'Ada Lovelace' }).waitFor();
      assert.equal(await guest.description.locator('strong').textContent(), 'Hello');
      // The browser's zone was applied.
      assert.equal(await guest.timeZone.inputValue(), 'Europe/Berlin');

      const day = hostDay(2);
      await guest.pickDate(day);
      const offered = await apiSlots('intro', day);
      assert.ok(offered.length > 0);
      // The page offers exactly the API's slots, labelled in the guest's zone.
      assert.deepEqual(
        await guest.slotStarts(),
        offered.map((slot) => slot.start),
      );
      assert.deepEqual(
        await guest.slotLabels(),
        offered.map((slot) => berlinTime(slot.start)),
      );

      const slot = offered[1] as Slot;
      await guest.pickSlot(slot.start);
      await guest.fill({
        name: 'Grace Hopper',
        email: 'grace@example.com',
        answers: { 'Topic?': 'b', 'Anything else?': 'Compilers' },
      });
      await guest.page.screenshot({ path: `${SCRATCH}/booking-page-${backend}.png`, fullPage: true });
      const id = await guest.submitAndConfirm();

      assert.equal(await guest.title.textContent(), 'Booked');
      const confirmation = (await guest.page.locator('.confirmation').textContent()) ?? '';
      assert.match(confirmation, /Europe\/Berlin/);
      assert.ok(confirmation.includes(berlinTime(slot.start).replace(/\s?[AP]M$/, '')), confirmation);
      const meetLink = guest.page.locator('.confirmation a[href^="http"]').first();
      assert.match((await meetLink.getAttribute('href')) ?? '', /^https?:\/\//);
      await guest.page.screenshot({ path: `${SCRATCH}/booked-${backend}.png`, fullPage: true });

      const booking = (await apiBookings()).find((b) => b.id === id);
      assert.ok(booking, 'the API lists the booking');
      assert.equal(booking.guest_email, 'grace@example.com');
      assert.equal(booking.status, 'confirmed');
      assert.equal(new Date(booking.start_time).toISOString(), slot.start);
      assert.equal(booking.ext_meet_link, await meetLink.getAttribute('href'));

      await guest.open('/ada/intro', { date: day, tz: 'Europe/Berlin' });
      assert.ok(!(await guest.slotStarts()).includes(slot.start), 'the booked slot is not offered any more');
      assert.ok(!(await apiSlots('intro', day)).some((s) => s.start === slot.start));
      await context.close();
    });

    test('a required question blocks the submit, in the browser and on the server', async () => {
      const context = await newGuest(browser);
      const guest = await BookingPage.create(context, server.origin);
      const day = hostDay(3);
      await guest.open('/ada/intro', { date: day, tz: 'Europe/Berlin' });
      const [start] = await guest.slotStarts();
      assert.ok(start);
      await guest.pickSlot(start);
      await guest.fill({ name: 'Alan', email: 'alan@example.com' });
      const before = guest.page.url();
      await guest.submit();
      const topic = guest.form.getByLabel('Topic?');
      assert.equal(await topic.evaluate((el: HTMLSelectElement) => el.validity.valueMissing), true);
      assert.equal(guest.page.url(), before);

      // Without the browser's check, the server refuses too and keeps what was typed.
      await guest.form.evaluate((form: HTMLFormElement) => {
        form.noValidate = true;
      });
      await guest.submit();
      await guest.error.waitFor();
      assert.equal(await guest.error.textContent(), 'Please answer “Topic?”.');
      assert.equal(await guest.form.getByLabel('Your name').inputValue(), 'Alan');
      assert.equal(await guest.form.getByLabel('Email', { exact: true }).inputValue(), 'alan@example.com');
      assert.ok(!(await apiBookings()).some((b) => b.guest_email === 'alan@example.com'));
      await context.close();
    });

    test('an approval page says the booking is requested', async () => {
      const context = await newGuest(browser);
      const guest = await BookingPage.create(context, server.origin);
      await guest.open('/ada/approval', { tz: 'Europe/Berlin' });
      await guest.pickDate(hostDay(4));
      const [start] = await guest.slotStarts();
      assert.ok(start);
      await guest.pickSlot(start);
      assert.equal(await guest.submitButton.textContent(), 'Request booking');
      await guest.fill({ name: 'Barbara', email: 'barbara@example.com' });
      const id = await guest.submitAndConfirm();
      assert.equal(await guest.title.textContent(), 'Requested — the host will confirm');
      assert.equal((await apiBookings()).find((b) => b.id === id)?.status, 'pending');
      await context.close();
    });

    test('a slot taken in between: the message, the typed details kept, the slot gone', async () => {
      const context = await newGuest(browser);
      const guest = await BookingPage.create(context, server.origin);
      const day = hostDay(5);
      await guest.open('/ada/intro', { date: day, tz: 'Europe/Berlin' });
      const starts = await guest.slotStarts();
      const start = starts[2] as string;
      await guest.pickSlot(start);
      await guest.fill({ name: 'Katherine', email: 'katherine@example.com', answers: { 'Topic?': 'a' } });

      const slot = (await apiSlots('intro', day)).find((s) => s.start === start) as Slot;
      const taken = await api('POST', '/bookings', ada().api_keys.publishable ?? '', {
        bookingPageId: ada().pages.intro?.id,
        guestName: 'Someone else',
        guestEmail: 'someone@example.com',
        startTime: slot.start,
        endTime: slot.end,
      });
      assert.equal(taken.status, 201);

      await guest.submit();
      await guest.error.waitFor();
      assert.equal(await guest.error.textContent(), 'This time slot is no longer available. Please pick another.');
      assert.equal(await guest.form.getByLabel('Your name').inputValue(), 'Katherine');
      assert.equal(await guest.form.getByLabel('Topic?').inputValue(), 'a');
      assert.equal(await guest.submitButton.isDisabled(), true);
      await guest.form.screenshot({ path: `${SCRATCH}/slot-taken-${backend}.png` });
      // The list was refreshed with the answer.
      await guest.page.waitForFunction(
        (s) => !document.querySelector(`ul.slots a[href*="${encodeURIComponent(s)}"]`),
        start,
      );
      // Another slot keeps the details; booking it works.
      const other = starts[3] as string;
      await guest.pickSlot(other);
      assert.equal(await guest.form.getByLabel('Your name').inputValue(), 'Katherine');
      assert.equal(await guest.error.count(), 0);
      await guest.submitAndConfirm();
      assert.equal(await guest.title.textContent(), 'Booked');
      await context.close();
    });

    test('a private page needs its access code', async () => {
      const context = await newGuest(browser);
      const guest = await BookingPage.create(context, server.origin);
      await guest.open('/ada/private', {}, false);
      await guest.page.getByRole('heading', { name: 'This page is private' }).waitFor();
      assert.equal(await guest.slotLinks.count(), 0);

      await guest.enterAccessCode('letmeout');
      await guest.accessError.waitFor();
      assert.equal(await guest.accessError.textContent(), 'That access code is not correct.');
      assert.equal(await guest.page.getByLabel('Time zone').count(), 0);

      await guest.enterAccessCode('letmein');
      await guest.page.waitForURL((url) => url.pathname === '/ada/private' && url.searchParams.has('tz'));
      assert.ok((await guest.slotLinks.count()) > 0, 'slots are shown after the right code');
      const [cookie] = (await context.cookies()).filter((c) => c.name === 'page_access');
      assert.ok(cookie?.httpOnly);
      assert.equal(cookie?.path, '/ada/private');
      await context.close();

      // The host's link with ?code= opens the page too, and the code leaves the address bar.
      const linked = await newGuest(browser);
      const other = await BookingPage.create(linked, server.origin);
      await other.open('/ada/private', { code: 'letmein' });
      assert.equal(new URL(other.page.url()).searchParams.get('code'), null);
      assert.ok((await other.slotLinks.count()) > 0);
      await linked.close();
    });

    test('inactive pages and unknown users or slugs are 404; team pages do not open', async () => {
      const context = await newGuest(browser);
      const guest = await BookingPage.create(context, server.origin);
      for (const path of ['/ada/inactive', '/ada/nope', '/nobody/intro', '/bob/approval']) {
        assert.equal((await guest.open(path, {}, false))?.status(), 404, path);
      }
      await guest.open('/ada/team', {}, false);
      await guest.page.getByText('This page is for members of a team; sign in to the dashboard to continue.').waitFor();
      assert.equal(await guest.slotLinks.count(), 0);
      await context.close();
    });

    test('the description is Markdown with HTML shown as text; far zones see the slot dates', async () => {
      const context = await newGuest(browser, { timezoneId: 'Asia/Tokyo' });
      const guest = await BookingPage.create(context, server.origin);
      await guest.open('/ada/notes');
      assert.equal(await guest.timeZone.inputValue(), 'Asia/Tokyo');
      const agenda = guest.description.getByRole('link', { name: 'the agenda' });
      assert.equal(await agenda.getAttribute('href'), 'https://example.com/agenda');
      assert.match((await guest.description.textContent()) ?? '', /<script>window.__pwned = 1<\/script>/);
      assert.equal(await guest.description.locator('script, b').count(), 0);
      assert.equal(await guest.description.getByRole('link', { name: 'bad' }).count(), 0);
      assert.equal(await guest.page.evaluate(() => (window as { __pwned?: number }).__pwned), undefined);

      // 09:00-17:00 in New York runs past midnight in Tokyo: the later slots carry their Tokyo date.
      await guest.pickDate(hostDay(2));
      const labels = await guest.slotLabels();
      assert.ok(!/,/.test(labels[0] ?? ''), labels[0]);
      assert.match(labels.at(-1) ?? '', /^[A-Z][a-z]{2}, [A-Z][a-z]{2} \d{1,2}, \d{1,2}:\d{2}\s?AM$/);
      await context.close();
    });

    test('the core flow works without JavaScript', async () => {
      const context = await newGuest(browser, { javaScriptEnabled: false });
      const guest = await BookingPage.create(context, server.origin);
      await guest.open('/ada/buffered', {}, false);
      // Without the browser's zone the times are in the host's until the guest picks one.
      assert.equal(await guest.timeZone.inputValue(), HOST_TZ);
      await guest.timeZone.selectOption('Europe/Berlin');
      await guest.page.getByRole('button', { name: 'Show times' }).click();
      await guest.page.waitForURL((url) => url.searchParams.get('tz') === 'Europe/Berlin');
      await guest.pickDate(hostDay(1));
      const [start] = await guest.slotStarts();
      assert.ok(start);
      await guest.pickSlot(start);
      await guest.fill({ name: 'Ada Jr', email: 'nojs@example.com' });
      const id = await guest.submitAndConfirm();
      assert.equal(await guest.title.textContent(), 'Booked');
      assert.ok((await apiBookings()).some((b) => b.id === id && b.guest_email === 'nojs@example.com'));
      await context.close();
    });
  });
}
