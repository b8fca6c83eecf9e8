// The hosted booking page's server side (lib/hosted) on PGlite and Postgres: which pages open, private-page access,
// the days and slots it shows (from listSlots), and bookings made through it, with the rules the API leaves to its
// callers (required questions) on top of createBooking's.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { SLOT_TAKEN } from '../../lib/bookings/create';
import { accessToken, isAccessCode, pageAccess } from '../../lib/hosted/access';
import { bookOnHostedPage, type HostedBookingInput, NEEDS_CODE_MESSAGE } from '../../lib/hosted/book';
import { addMonths, bookableRange, monthWeeks, slotLabel } from '../../lib/hosted/calendar';
import { type HostedPage, loadHostedPage } from '../../lib/hosted/page';
import { getGuestBooking } from '../../lib/hosted/queries';
import { loadSchedule } from '../../lib/hosted/schedule';
import { ApiError } from '../../lib/http/errors';
import { type ImportResult, importDocument } from '../../lib/import/import';
import { listSlots } from '../../lib/slots/service';
import { backends, type TestDb } from '../helpers/db';

// January 2030: New York is on EST (UTC-05:00) all month, so host-local 09:00 is 14:00Z.
const NOW = new Date('2029-12-31T12:00:00Z');
const DAY = '2030-01-02';
const EVERY_DAY_9_TO_5 = Object.fromEntries(
  ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((day) => [day, [['09:00', '17:00']]]),
);

function document() {
  return {
    hosts: [
      {
        email: 'ada@example.com',
        username: 'ada',
        full_name: 'Ada Lovelace',
        timezone: 'America/New_York',
        availability: [{ name: 'Every day', weekly: EVERY_DAY_9_TO_5 }],
        pages: [
          {
            slug: 'intro',
            title: 'Intro',
            description: '**Hello**',
            duration_minutes: 30,
            max_days_ahead: 10,
            questions: [
              { question_text: 'Topic?', question_type: 'select', options: ['a', 'b'], is_required: true },
              { question_text: 'Anything else?', question_type: 'textarea' },
              { question_text: 'Agree?', question_type: 'checkbox', is_required: true },
              { question_text: 'Assistant email', question_type: 'email' },
            ],
          },
          { slug: 'approval', title: 'Approval', duration_minutes: 60, booking_type: 'approval' },
          { slug: 'inactive', title: 'Inactive', duration_minutes: 30, is_active: false },
          { slug: 'private', title: 'Private', duration_minutes: 45, visibility: 'private', access_code: 'letmein' },
          { slug: 'team', title: 'Team', duration_minutes: 30, visibility: 'team', allowed_team: 'Sales' },
        ],
      },
      { email: 'bob@example.com', username: 'bob', timezone: 'Europe/Berlin', pages: [] },
    ],
    teams: [{ name: 'Sales', members: ['ada'] }],
  };
}

const at = (time: string, day = DAY) => new Date(`${day}T${time}:00-05:00`).toISOString();

for (const backend of backends) {
  describe(`hosted page on ${backend.name}`, () => {
    let t: TestDb;
    let seed: ImportResult;
    let intro: HostedPage;
    let questions: string[];

    before(async () => {
      t = await backend.open();
      seed = await t.db.transaction((tx) => importDocument(tx, document()));
      const page = await loadHostedPage(t.db, 'ada', 'intro');
      assert.ok(page);
      intro = page;
      questions = seed.hosts.ada?.pages.intro?.questions ?? [];
    });
    after(() => t?.drop());

    const load = async (slug: string) => {
      const page = await loadHostedPage(t.db, 'ada', slug);
      assert.ok(page, slug);
      return page;
    };
    let guest = 0;
    const input = (overrides: Partial<HostedBookingInput> = {}): HostedBookingInput => ({
      start: at('09:00'),
      end: at('09:30'),
      guestName: 'Grace',
      guestEmail: `guest${++guest}@example.com`,
      timeZone: 'Europe/Berlin',
      answers: { [questions[0] as string]: 'a', [questions[2] as string]: 'on' },
      ...overrides,
    });
    const refused = async (promise: Promise<unknown>, status: number, message: string | RegExp) => {
      await assert.rejects(promise, (error: unknown) => {
        assert.ok(error instanceof ApiError, String(error));
        assert.equal(error.status, status);
        if (typeof message === 'string') assert.equal(error.message, message);
        else assert.match(error.message, message);
        return true;
      });
    };

    test('an unknown user or slug and an inactive page are not found', async () => {
      assert.equal(await loadHostedPage(t.db, 'nobody', 'intro'), null);
      assert.equal(await loadHostedPage(t.db, 'ada', 'nope'), null);
      assert.equal(await loadHostedPage(t.db, 'ada', 'inactive'), null);
      assert.equal(await loadHostedPage(t.db, 'bob', 'intro'), null);
      assert.equal(intro.description, '**Hello**');
      assert.equal(intro.host_name, 'Ada Lovelace');
      assert.equal(intro.visibility, 'public');
    });

    test('public pages open, team pages never, private pages with the cookie of the current code', async () => {
      const priv = await load('private');
      assert.equal(pageAccess(intro, undefined), 'open');
      assert.equal(pageAccess(await load('team'), accessToken(priv)), 'team-only');
      assert.equal(pageAccess(priv, undefined), 'needs-code');
      assert.equal(pageAccess(priv, 'forged'), 'needs-code');
      assert.equal(pageAccess(priv, accessToken(priv)), 'open');
      // Another page's token does not open this one.
      assert.equal(
        pageAccess(priv, accessToken({ id: intro.id, access_code_hash: priv.access_code_hash })),
        'needs-code',
      );
      // A new code (a new salted hash) locks out the old cookie.
      assert.equal(
        pageAccess({ ...priv, access_code_hash: `${priv.access_code_hash}x` }, accessToken(priv)),
        'needs-code',
      );
      assert.equal(await isAccessCode(priv, 'letmein'), true);
      assert.equal(await isAccessCode(priv, 'letmeout'), false);
      assert.equal(await isAccessCode(priv, ''), false);
    });

    test('the schedule: open days of the month within max_days_ahead, the first open day, its slots', async () => {
      const schedule = await loadSchedule(t.db, intro, {}, NOW);
      // 12:00Z is 07:00 in New York: today still has all its slots.
      assert.equal(schedule.today, '2029-12-31');
      assert.equal(schedule.last, '2030-01-10');
      assert.equal(schedule.day, '2029-12-31');
      assert.equal(schedule.month, '2029-12');
      assert.deepEqual([...schedule.openDays], ['2029-12-31']);
      assert.deepEqual(schedule.slots, await listSlots(t.db, intro, '2029-12-31', NOW));
      assert.equal(schedule.slots.length, 16);

      const january = await loadSchedule(t.db, intro, { month: '2030-01' }, NOW);
      assert.equal(january.day, null);
      assert.equal(january.openDays.size, 10);
      assert.ok(january.openDays.has('2030-01-10') && !january.openDays.has('2030-01-11'));

      const late = await loadSchedule(t.db, intro, { date: '2030-01-11' }, NOW);
      assert.equal(late.month, '2030-01');
      assert.deepEqual(late.slots, []);
      const past = await loadSchedule(t.db, intro, { date: '2029-12-30' }, NOW);
      assert.deepEqual(past.slots, []);
    });

    test('calendar helpers', () => {
      assert.deepEqual(bookableRange('2030-01-30', 3), { first: '2030-01-30', last: '2030-02-02' });
      assert.deepEqual(bookableRange('2030-01-30', null), { first: '2030-01-30', last: null });
      assert.equal(addMonths('2029-12', 1), '2030-01');
      assert.equal(addMonths('2030-01', -1), '2029-12');
      const weeks = monthWeeks('2030-01');
      // 1 January 2030 is a Tuesday.
      assert.deepEqual(weeks[0], [null, null, '2030-01-01', '2030-01-02', '2030-01-03', '2030-01-04', '2030-01-05']);
      assert.equal(weeks.length, 5);
      assert.ok(weeks.every((week) => week.length === 7));
      // 09:00 in New York: 15:00 the same day in Berlin, 23:00 in Tokyo; 16:30 is 06:30 the next day in Tokyo.
      assert.deepEqual(slotLabel(new Date(at('09:00')), 'Europe/Berlin', DAY), { time: '3:00 PM', date: null });
      assert.deepEqual(slotLabel(new Date(at('09:00')), 'Asia/Tokyo', DAY), { time: '11:00 PM', date: null });
      assert.deepEqual(slotLabel(new Date(at('16:30')), 'Asia/Tokyo', DAY), { time: '6:30 AM', date: 'Thu, Jan 3' });
    });

    test('a booking with the required answers: confirmed, answers saved, guest zone kept', async () => {
      const booking = await bookOnHostedPage(
        t.db,
        intro,
        input({
          answers: {
            [questions[0] as string]: 'b',
            [questions[1] as string]: ' notes ',
            [questions[2] as string]: 'on',
          },
        }),
        undefined,
        NOW,
      );
      assert.equal(booking.status, 'confirmed');
      assert.equal(booking.start_time.toISOString(), new Date(at('09:00')).toISOString());
      const seen = await getGuestBooking(t.db, intro.id, booking.id);
      assert.equal(seen?.guest_timezone, 'Europe/Berlin');
      assert.equal(await getGuestBooking(t.db, (await load('approval')).id, booking.id), null);
      const { rows } = await t.db.query<{ question_id: string; answer: string }>(
        'select question_id, answer from meeting_responses where booking_id = $1 order by answer',
        [booking.id],
      );
      assert.deepEqual(
        rows.map((row) => [questions.indexOf(row.question_id), row.answer]),
        [
          [2, 'Yes'],
          [0, 'b'],
          [1, 'notes'],
        ],
      );
      // The slot is gone, and booking it again is refused with the guest-facing wording.
      assert.ok(!(await listSlots(t.db, intro, DAY, NOW)).some((slot) => slot.start === at('09:00')));
      await refused(bookOnHostedPage(t.db, intro, input(), undefined, NOW), 409, SLOT_TAKEN);
    });

    test('required questions, select options and email answers are enforced', async () => {
      const slot = { start: at('10:00'), end: at('10:30') };
      await refused(
        bookOnHostedPage(t.db, intro, input({ ...slot, answers: { [questions[2] as string]: 'on' } }), undefined, NOW),
        400,
        'Please answer “Topic?”.',
      );
      await refused(
        bookOnHostedPage(t.db, intro, input({ ...slot, answers: { [questions[0] as string]: 'a' } }), undefined, NOW),
        400,
        'Please tick “Agree?”.',
      );
      await refused(
        bookOnHostedPage(
          t.db,
          intro,
          input({ ...slot, answers: { [questions[0] as string]: 'c', [questions[2] as string]: 'on' } }),
          undefined,
          NOW,
        ),
        400,
        'Please choose one of the options for “Topic?”.',
      );
      await refused(
        bookOnHostedPage(
          t.db,
          intro,
          input({
            ...slot,
            answers: { [questions[0] as string]: 'a', [questions[2] as string]: 'on', [questions[3] as string]: 'x' },
          }),
          undefined,
          NOW,
        ),
        400,
        'Please enter an email address for “Assistant email”.',
      );
      // Nothing was booked by the refused attempts.
      assert.ok((await listSlots(t.db, intro, DAY, NOW)).some((slot) => slot.start === at('10:00')));
    });

    test('guest fields: missing, malformed, and a time that is not an offered slot', async () => {
      await refused(
        bookOnHostedPage(t.db, intro, input({ guestName: ' ' }), undefined, NOW),
        400,
        'Please enter your name.',
      );
      await refused(
        bookOnHostedPage(t.db, intro, input({ guestEmail: '' }), undefined, NOW),
        400,
        'Please enter your email address.',
      );
      await refused(
        bookOnHostedPage(t.db, intro, input({ guestEmail: 'a@b' }), undefined, NOW),
        400,
        'Please enter a valid email address.',
      );
      await refused(
        bookOnHostedPage(t.db, intro, input({ start: 'soon', end: at('10:30') }), undefined, NOW),
        400,
        'Please pick a time.',
      );
      // Outside the host's hours: a secret key could book it, the hosted page (like a publishable key) cannot.
      await refused(
        bookOnHostedPage(t.db, intro, input({ start: at('07:00'), end: at('07:30') }), undefined, NOW),
        409,
        SLOT_TAKEN,
      );
      // Beyond max_days_ahead.
      await refused(
        bookOnHostedPage(
          t.db,
          intro,
          input({ start: at('09:00', '2030-01-20'), end: at('09:30', '2030-01-20') }),
          undefined,
          NOW,
        ),
        409,
        SLOT_TAKEN,
      );
    });

    test('an unknown guest zone is not stored', async () => {
      const booking = await bookOnHostedPage(
        t.db,
        intro,
        input({ start: at('11:00'), end: at('11:30'), timeZone: 'Mars/Olympus' }),
        undefined,
        NOW,
      );
      assert.equal((await getGuestBooking(t.db, intro.id, booking.id))?.guest_timezone, null);
    });

    test('approval pages create pending bookings', async () => {
      const approval = await load('approval');
      const booking = await bookOnHostedPage(
        t.db,
        approval,
        input({ start: at('13:00'), end: at('14:00'), answers: {} }),
        undefined,
        NOW,
      );
      assert.equal(booking.status, 'pending');
    });

    test('private pages book only with the access cookie; team pages never', async () => {
      const priv = await load('private');
      const slot = { start: at('14:15'), end: at('15:00'), answers: {} };
      await refused(bookOnHostedPage(t.db, priv, input(slot), undefined, NOW), 403, NEEDS_CODE_MESSAGE);
      await refused(bookOnHostedPage(t.db, priv, input(slot), 'forged', NOW), 403, NEEDS_CODE_MESSAGE);
      const booking = await bookOnHostedPage(t.db, priv, input(slot), accessToken(priv), NOW);
      assert.equal(booking.status, 'confirmed');
      const team = await load('team');
      await refused(
        bookOnHostedPage(t.db, team, input({ start: at('15:30'), end: at('16:00'), answers: {} }), undefined, NOW),
        403,
        /members of a team/,
      );
    });

    test('the guest email limit of createBooking applies', async () => {
      const email = 'busy@example.com';
      // Attempts the hosted page refuses itself (a required question unanswered) never reach the limit; refusals
      // of createBooking (a time that is not offered) count.
      await assert.rejects(bookOnHostedPage(t.db, intro, input({ guestEmail: email, answers: {} }), undefined, NOW));
      for (let i = 0; i < 5; i++) {
        const outside = { start: at('07:00'), end: at('07:30') };
        await refused(
          bookOnHostedPage(t.db, intro, input({ ...outside, guestEmail: email }), undefined, NOW),
          409,
          SLOT_TAKEN,
        );
      }
      await refused(
        bookOnHostedPage(t.db, intro, input({ guestEmail: email }), undefined, NOW),
        429,
        'Too many booking requests. Please try again later.',
      );
    });
  });
}
