import type { Metadata } from 'next';
import { cookies } from 'next/headers';
import Link from 'next/link';
import { notFound, redirect } from 'next/navigation';
import { listQuestions } from '@/lib/booking-pages/queries';
import { SLOT_TAKEN } from '@/lib/bookings/create';
import { getDb } from '@/lib/db/client';
import {
  ACCESS_COOKIE,
  pageAccess,
  TEAM_ONLY_MESSAGE,
  TOO_MANY_ATTEMPTS_MESSAGE,
  WRONG_CODE_MESSAGE,
} from '@/lib/hosted/access';
import {
  addMonths,
  formatDayLabel,
  formatDayTitle,
  formatMonth,
  formatSlotRange,
  monthOf,
  monthWeeks,
  slotLabel,
  timeZoneNames,
} from '@/lib/hosted/calendar';
import { type HostedPage, hostedPath, loadHostedPage } from '@/lib/hosted/page';
import { loadSchedule, type Schedule } from '@/lib/hosted/schedule';
import { isValidTimeZone } from '@/lib/slots/slots';
import { bookSlot } from './actions';
import { BookingForm } from './booking-form';
import { Markdown } from './markdown';
import { TimeZonePicker } from './time-zone-picker';

// Reads the database on every request; never prerendered at build time.
export const dynamic = 'force-dynamic';

type Params = Promise<{ username: string; slug: string }>;
type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { username, slug } = await params;
  const page = await loadHostedPage(await getDb(), username, slug);
  return page ? { title: `${page.title} · ${page.host_name}` } : {};
}

export default async function HostedBookingPage({
  params,
  searchParams,
}: {
  params: Params;
  searchParams: SearchParams;
}) {
  const { username, slug } = await params;
  const search = await searchParams;
  const query = (name: string) => {
    const value = search[name];
    return typeof value === 'string' ? value : undefined;
  };
  const db = await getDb();
  const page = await loadHostedPage(db, username, slug);
  if (!page) notFound();

  const code = query('code');
  if (code !== undefined && page.visibility === 'private') {
    redirect(`${hostedPath(page)}/access?code=${encodeURIComponent(code)}`);
  }
  const access = pageAccess(page, (await cookies()).get(ACCESS_COOKIE)?.value);
  if (access === 'team-only') {
    return (
      <>
        <PageHeader page={page} showDescription={false} />
        <p className="notice">{TEAM_ONLY_MESSAGE}</p>
      </>
    );
  }
  if (access === 'needs-code') {
    return (
      <>
        <PageHeader page={page} showDescription={false} />
        <AccessCodeForm page={page} failure={query('access')} />
      </>
    );
  }

  const tzQuery = query('tz');
  const timeZone = tzQuery !== undefined && isValidTimeZone(tzQuery) ? tzQuery : page.host_timezone;
  const now = new Date();
  const schedule = await loadSchedule(db, page, { date: query('date'), month: query('month') }, now);
  const picked = pickedSlot(page, schedule, query('slot'));
  const questions = picked ? await listQuestions(db, page.id) : [];

  // Links keep the guest's zone once the URL names it; until then the browser's zone is applied on load.
  const link = (params: Record<string, string | null>, hash = '') => {
    const next = new URLSearchParams();
    if (tzQuery !== undefined) next.set('tz', timeZone);
    for (const [name, value] of Object.entries(params)) if (value !== null) next.set(name, value);
    return `${hostedPath(page)}?${next.toString()}${hash}`;
  };
  const keep: Record<string, string> = {};
  if (schedule.day) keep.date = schedule.day;
  else keep.month = schedule.month;
  if (picked) keep.slot = picked.start;

  return (
    <>
      <PageHeader page={page} showDescription />
      <TimeZonePicker value={timeZone} names={timeZoneNames([timeZone])} keep={keep} chosen={tzQuery !== undefined} />
      <div className="booking-layout">
        <section aria-labelledby="calendar-title">
          <MonthGrid schedule={schedule} link={link} />
        </section>
        <section aria-labelledby="slots-title" className="slot-column">
          <SlotList schedule={schedule} timeZone={timeZone} picked={picked?.start ?? null} link={link} />
        </section>
      </div>
      {picked && schedule.day && (
        <section id="book" aria-labelledby="book-title" className="card">
          <h2 id="book-title">{page.booking_type === 'approval' ? 'Request this time' : 'Book this time'}</h2>
          <p>
            <strong>{formatSlotRange(new Date(picked.start), new Date(picked.end), timeZone)}</strong>{' '}
            <span className="muted">({timeZone.replaceAll('_', ' ')})</span>{' '}
            <Link href={link({ date: schedule.day })} prefetch={false}>
              Change time
            </Link>
          </p>
          <BookingForm
            action={bookSlot.bind(null, page.host_username, page.slug)}
            slot={picked}
            timeZone={timeZone}
            approval={page.booking_type === 'approval'}
            unavailableMessage={SLOT_TAKEN}
            questions={questions.map((q) => ({
              id: q.id,
              text: q.question_text,
              type: q.question_type,
              options: q.options,
              required: q.is_required,
            }))}
          />
        </section>
      )}
    </>
  );
}

/**
 * The slot named by `?slot=` (its start). One the day no longer offers is still returned, marked unavailable, so
 * the form (and what the guest typed) stays on screen while they pick another.
 */
function pickedSlot(page: HostedPage, schedule: Schedule, start: string | undefined) {
  if (start === undefined || schedule.day === null) return null;
  const instant = Date.parse(start);
  if (Number.isNaN(instant)) return null;
  const offered = schedule.slots.find((slot) => Date.parse(slot.start) === instant);
  if (offered) return { ...offered, available: true };
  const startIso = new Date(instant).toISOString();
  const end = new Date(instant + page.duration_minutes * 60_000).toISOString();
  return { start: startIso, end, available: false };
}

function PageHeader({ page, showDescription }: { page: HostedPage; showDescription: boolean }) {
  return (
    <header className="page-header">
      <p className="muted">
        <Link href={`/${encodeURIComponent(page.host_username)}`}>{page.host_name}</Link>
      </p>
      <h1>{page.title}</h1>
      <p className="page-facts">
        <span>{page.duration_minutes} minutes</span>
        {page.booking_type === 'approval' && <span>The host confirms each request</span>}
      </p>
      {showDescription && page.description && <Markdown source={page.description} className="description" />}
    </header>
  );
}

function AccessCodeForm({ page, failure }: { page: HostedPage; failure: string | undefined }) {
  const message = failure === 'wrong' ? WRONG_CODE_MESSAGE : failure === 'limited' ? TOO_MANY_ATTEMPTS_MESSAGE : null;
  return (
    <section className="card" aria-labelledby="access-title">
      <h2 id="access-title">This page is private</h2>
      {message && (
        <p className="form-error" role="alert">
          {message}
        </p>
      )}
      {page.show_access_code_prompt ? (
        <form method="post" action={`${hostedPath(page)}/access`} className="access-form">
          <div className="field">
            <label htmlFor="access-code">Access code</label>
            <input id="access-code" name="code" type="password" required autoComplete="off" />
          </div>
          <button type="submit" className="button">
            Continue
          </button>
        </form>
      ) : (
        <p>Open it with the link you received from the host.</p>
      )}
    </section>
  );
}

type LinkTo = (params: Record<string, string | null>, hash?: string) => string;

function MonthGrid({ schedule, link }: { schedule: Schedule; link: LinkTo }) {
  const { month, today, last } = schedule;
  const previous = addMonths(month, -1);
  const next = addMonths(month, 1);
  const hasPrevious = previous >= monthOf(today);
  const hasNext = last === null || next <= monthOf(last);
  return (
    <div className="calendar">
      <div className="calendar-nav">
        {hasPrevious ? (
          <Link href={link({ month: previous })} prefetch={false} scroll={false} aria-label="Previous month">
            ‹
          </Link>
        ) : (
          <span aria-hidden="true">‹</span>
        )}
        <h2 id="calendar-title">{formatMonth(month)}</h2>
        {hasNext ? (
          <Link href={link({ month: next })} prefetch={false} scroll={false} aria-label="Next month">
            ›
          </Link>
        ) : (
          <span aria-hidden="true">›</span>
        )}
      </div>
      <table>
        <thead>
          <tr>
            {['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'].map((day) => (
              <th key={day} scope="col" abbr={day}>
                {day.slice(0, 2)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {monthWeeks(month).map((week) => (
            <tr key={week.find((day) => day !== null) ?? month}>
              {week.map((day, i) => (
                <td key={day ?? `empty-${i}`}>{day && <DayCell day={day} schedule={schedule} link={link} />}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function DayCell({ day, schedule, link }: { day: string; schedule: Schedule; link: LinkTo }) {
  const number = Number(day.slice(8));
  const selected = day === schedule.day;
  const classes = ['day', selected ? 'selected' : '', day === schedule.today ? 'today' : ''].join(' ').trim();
  if (!schedule.openDays.has(day)) {
    return <span className={`${classes} closed`}>{number}</span>;
  }
  return (
    <Link
      href={link({ date: day })}
      prefetch={false}
      scroll={false}
      className={classes}
      aria-label={formatDayLabel(day)}
      aria-current={selected ? 'date' : undefined}
    >
      {number}
    </Link>
  );
}

function SlotList({
  schedule,
  timeZone,
  picked,
  link,
}: {
  schedule: Schedule;
  timeZone: string;
  picked: string | null;
  link: LinkTo;
}) {
  const { day, slots } = schedule;
  if (day === null) {
    return (
      <>
        <h2 id="slots-title">Pick a day</h2>
        <p className="muted">
          {schedule.openDays.size > 0
            ? 'Days with open times are highlighted.'
            : `No open times in ${formatMonth(schedule.month)}.`}
        </p>
      </>
    );
  }
  return (
    <>
      <h2 id="slots-title">{formatDayTitle(day)}</h2>
      <p className="muted">Times in {timeZone.replaceAll('_', ' ')}</p>
      {slots.length === 0 ? (
        <p>No open times on this day. Please pick another day.</p>
      ) : (
        <ul className="slots">
          {slots.map((slot) => {
            const label = slotLabel(new Date(slot.start), timeZone, day);
            const selected = slot.start === picked;
            return (
              <li key={slot.start}>
                <Link
                  href={link({ date: day, slot: slot.start }, '#book')}
                  prefetch={false}
                  className={selected ? 'slot selected' : 'slot'}
                  aria-current={selected ? 'true' : undefined}
                >
                  {label.date && <span className="slot-date">{label.date}, </span>}
                  {label.time}
                </Link>
              </li>
            );
          })}
        </ul>
      )}
    </>
  );
}
