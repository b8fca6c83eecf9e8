// iCalendar (RFC 5545) invites for booking emails and the host's private feed.

export type IcsEvent = {
  uid: string;
  sequence: number;
  start: Date;
  end: Date;
  summary: string;
  description: string;
  location: string | null;
  organizer: { name: string; email: string };
  attendee: { name: string; email: string } | null;
  status: 'CONFIRMED' | 'TENTATIVE' | 'CANCELLED';
  stamp: Date;
};

/** UID of a booking's event: stable across every email and feed entry about it. */
export function bookingUid(bookingId: string): string {
  return `booking-${bookingId}@booking-service`;
}

function utc(date: Date): string {
  return date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

/** TEXT value escaping (RFC 5545, 3.3.11). */
export function escapeText(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r?\n/g, '\\n');
}

// Parameter values (CN) cannot be escaped, only quoted; quotes and control characters are dropped.
function param(value: string): string {
  return `"${value.replace(/["\r\n\t]/g, '').slice(0, 200)}"`;
}

/** Lines longer than 75 octets are folded with CRLF + space (RFC 5545, 3.1), never inside a UTF-8 sequence. */
export function foldLine(line: string): string {
  const bytes = Buffer.from(line, 'utf8');
  if (bytes.length <= 75) return line;
  const parts: string[] = [];
  let start = 0;
  let limit = 75;
  while (start < bytes.length) {
    let end = Math.min(start + limit, bytes.length);
    // Step back to a character boundary (continuation bytes are 10xxxxxx).
    while (end < bytes.length && ((bytes[end] as number) & 0xc0) === 0x80) end--;
    parts.push(bytes.subarray(start, end).toString('utf8'));
    start = end;
    limit = 74;
  }
  return parts.join('\r\n ');
}

function eventLines(event: IcsEvent): string[] {
  const lines = [
    'BEGIN:VEVENT',
    `UID:${event.uid}`,
    `DTSTAMP:${utc(event.stamp)}`,
    `SEQUENCE:${event.sequence}`,
    `DTSTART:${utc(event.start)}`,
    `DTEND:${utc(event.end)}`,
    `SUMMARY:${escapeText(event.summary)}`,
    `DESCRIPTION:${escapeText(event.description)}`,
    `STATUS:${event.status}`,
    `ORGANIZER;CN=${param(event.organizer.name)}:mailto:${event.organizer.email}`,
  ];
  if (event.location) lines.push(`LOCATION:${escapeText(event.location)}`, `URL:${event.location}`);
  if (event.attendee) {
    lines.push(
      `ATTENDEE;CN=${param(event.attendee.name)};ROLE=REQ-PARTICIPANT;PARTSTAT=ACCEPTED;RSVP=FALSE:mailto:${event.attendee.email}`,
    );
  }
  lines.push('END:VEVENT');
  return lines;
}

/** A whole calendar object; `method` is REQUEST or CANCEL for emails (iTIP), absent for a subscribed feed. */
export function calendar(events: IcsEvent[], method?: 'REQUEST' | 'CANCEL', name?: string): string {
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Booking Service//EN', 'CALSCALE:GREGORIAN'];
  if (method) lines.push(`METHOD:${method}`);
  if (name) lines.push(`X-WR-CALNAME:${escapeText(name)}`);
  for (const event of events) lines.push(...eventLines(event));
  lines.push('END:VCALENDAR');
  return `${lines.map(foldLine).join('\r\n')}\r\n`;
}
