// The service's booking emails: plain text, HTML and an iCalendar invite, times in the reader's zone.
// Everything a guest typed is escaped before it goes into HTML; nothing they typed becomes markup.
import { bookingUid, calendar, type IcsEvent } from './ical';

export type EmailKind =
  | 'guest_confirmation'
  | 'host_notification'
  | 'host_approval_request'
  | 'guest_approved'
  | 'guest_declined'
  | 'guest_cancelled'
  | 'calendar_invite'
  | 'calendar_cancel';

export type Email = {
  kind: EmailKind;
  to: string;
  toName: string;
  subject: string;
  text: string;
  html: string;
  ics: string;
};

export type BookingFacts = {
  bookingId: string;
  sequence: number;
  pageTitle: string;
  hostName: string;
  hostEmail: string;
  hostTimezone: string;
  guestName: string;
  guestEmail: string;
  guestTimezone: string | null;
  start: Date;
  end: Date;
  meetLink: string | null;
  reason?: string | null;
};

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function formatWhen(start: Date, end: Date, timeZone: string): string {
  const day = new Intl.DateTimeFormat('en-GB', { timeZone, dateStyle: 'full' }).format(start);
  const time = new Intl.DateTimeFormat('en-GB', { timeZone, timeStyle: 'short' });
  return `${day}, ${time.format(start)}-${time.format(end)} (${timeZone})`;
}

type Line = string | { link: string };

function render(kind: EmailKind, to: { email: string; name: string }, subject: string, lines: Line[], ics: string) {
  const text = lines.map((line) => (typeof line === 'string' ? line : line.link)).join('\n\n');
  const html = lines
    .map((line) =>
      typeof line === 'string'
        ? `<p>${escapeHtml(line)}</p>`
        : `<p><a href="${escapeHtml(line.link)}">${escapeHtml(line.link)}</a></p>`,
    )
    .join('\n');
  return {
    kind,
    to: to.email,
    toName: to.name,
    subject: subject.replace(/[\r\n]+/g, ' '),
    text: `${text}\n`,
    html: `<!doctype html>\n<html><body style="font-family:sans-serif">\n${html}\n</body></html>\n`,
    ics,
  } satisfies Email;
}

function invite(facts: BookingFacts, method: 'REQUEST' | 'CANCEL', status: IcsEvent['status']): string {
  return calendar(
    [
      {
        uid: bookingUid(facts.bookingId),
        sequence: facts.sequence,
        start: facts.start,
        end: facts.end,
        summary: `${facts.pageTitle}: ${facts.hostName} and ${facts.guestName}`,
        description: facts.meetLink ? `Join: ${facts.meetLink}` : facts.pageTitle,
        location: facts.meetLink,
        organizer: { name: facts.hostName, email: facts.hostEmail },
        attendee: { name: facts.guestName, email: facts.guestEmail },
        status,
        stamp: new Date(),
      },
    ],
    method,
  );
}

const guest = (f: BookingFacts) => ({ email: f.guestEmail, name: f.guestName });
const host = (f: BookingFacts) => ({ email: f.hostEmail, name: f.hostName });
const guestWhen = (f: BookingFacts) => formatWhen(f.start, f.end, f.guestTimezone ?? f.hostTimezone);
const hostWhen = (f: BookingFacts) => formatWhen(f.start, f.end, f.hostTimezone);
const joinLine = (f: BookingFacts): Line[] => (f.meetLink ? ['Join the meeting:', { link: f.meetLink }] : []);

/** Emails of a new booking (spec: States and transitions, POST /bookings rows). */
export function newBookingEmails(bookingType: 'direct' | 'approval', f: BookingFacts): Email[] {
  if (bookingType === 'approval') {
    return [
      render(
        'host_approval_request',
        host(f),
        `Booking request: ${f.pageTitle} with ${f.guestName}`,
        [
          `${f.guestName} <${f.guestEmail}> asks to book ${f.pageTitle}.`,
          `When: ${hostWhen(f)}`,
          'Confirm or decline the request in your dashboard. The guest hears from us once you decide.',
        ],
        invite(f, 'REQUEST', 'TENTATIVE'),
      ),
    ];
  }
  return [
    render(
      'guest_confirmation',
      guest(f),
      `Confirmed: ${f.pageTitle} with ${f.hostName}`,
      [
        `Hi ${f.guestName}, your booking is confirmed.`,
        `${f.pageTitle} with ${f.hostName}`,
        `When: ${guestWhen(f)}`,
        ...joinLine(f),
      ],
      invite(f, 'REQUEST', 'CONFIRMED'),
    ),
    render(
      'host_notification',
      host(f),
      `New booking: ${f.pageTitle} with ${f.guestName}`,
      [`${f.guestName} <${f.guestEmail}> booked ${f.pageTitle}.`, `When: ${hostWhen(f)}`, ...joinLine(f)],
      invite(f, 'REQUEST', 'CONFIRMED'),
    ),
  ];
}

/** The host approved, declined or cancelled in the dashboard: the guest learns the outcome. */
export function hostDecisionEmail(decision: 'approved' | 'declined' | 'cancelled', f: BookingFacts): Email {
  if (decision === 'approved') {
    return render(
      'guest_approved',
      guest(f),
      `Confirmed: ${f.pageTitle} with ${f.hostName}`,
      [`Hi ${f.guestName}, ${f.hostName} confirmed your booking.`, `When: ${guestWhen(f)}`, ...joinLine(f)],
      invite(f, 'REQUEST', 'CONFIRMED'),
    );
  }
  const declined = decision === 'declined';
  return render(
    declined ? 'guest_declined' : 'guest_cancelled',
    guest(f),
    `${declined ? 'Declined' : 'Cancelled'}: ${f.pageTitle} with ${f.hostName}`,
    [
      declined
        ? `Hi ${f.guestName}, ${f.hostName} could not take your booking for ${guestWhen(f)}.`
        : `Hi ${f.guestName}, ${f.hostName} cancelled your booking for ${guestWhen(f)}.`,
      ...(f.reason ? [`Reason: ${f.reason}`] : []),
    ],
    invite(f, 'CANCEL', 'CANCELLED'),
  );
}

/** What the local calendar provider sends the guest, standing in for an external calendar's own notifications. */
export function calendarEmail(change: 'invite' | 'cancel', f: BookingFacts): Email {
  if (change === 'invite') {
    return render(
      'calendar_invite',
      guest(f),
      `Invitation: ${f.pageTitle} with ${f.hostName}`,
      [`${f.hostName} invites you to ${f.pageTitle}.`, `When: ${guestWhen(f)}`, ...joinLine(f)],
      invite(f, 'REQUEST', 'CONFIRMED'),
    );
  }
  return render(
    'calendar_cancel',
    guest(f),
    `Cancelled: ${f.pageTitle} with ${f.hostName}`,
    [`${f.pageTitle} with ${f.hostName} on ${guestWhen(f)} was cancelled.`],
    invite(f, 'CANCEL', 'CANCELLED'),
  );
}
