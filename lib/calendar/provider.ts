import { randomBytes, randomUUID } from 'node:crypto';
import type { Sql } from '../db/client';
import { googleConfigured } from './config';
import { googleProvider } from './google';
import { getGoogleConnection } from './queries';
import { syncConnection } from './sync';

export type EventRequest = {
  accountId: string;
  bookingId: string;
  title: string;
  start: Date;
  end: Date;
  guest: { name: string; email: string };
  withMeetLink: boolean;
};

export type CreatedEvent = { eventId: string; calendarId: string; meetLink: string | null };

/** An external calendar: where booking events go and, for synced calendars, where busy time comes from. */
export type CalendarProvider = {
  readonly name: 'local' | 'google';
  createEvent(db: Sql, request: EventRequest): Promise<CreatedEvent>;
  deleteEvent(db: Sql, accountId: string, eventId: string): Promise<void>;
};

export function meetBaseUrl(): string {
  return (process.env.MEET_BASE_URL || 'https://meet.jit.si').replace(/\/+$/, '');
}

/** A Jitsi Meet room nobody can guess: 128 random bits in the name. */
export function newMeetLink(): string {
  return `${meetBaseUrl()}/Booking-${randomBytes(16).toString('hex')}`;
}

/**
 * Default provider, no configuration: events are rows in calendar_events (the host subscribes to them through
 * their private iCalendar feed) and meeting links are Jitsi Meet rooms.
 */
export const localProvider: CalendarProvider = {
  name: 'local',
  async createEvent(db, request) {
    const eventId = randomUUID();
    const calendarId = `local:${request.accountId}`;
    const meetLink = request.withMeetLink ? newMeetLink() : null;
    await db.query(
      `insert into calendar_events (account_id, kind, provider, booking_id, external_id, calendar_id, title,
         start_time, end_time, meet_link)
       values ($1, 'booking', 'local', $2, $3, $4, $5, $6, $7, $8)`,
      [request.accountId, request.bookingId, eventId, calendarId, request.title, request.start, request.end, meetLink],
    );
    return { eventId, calendarId, meetLink };
  },
  async deleteEvent(db, accountId, eventId) {
    await db.query(
      `update calendar_events set cancelled_at = now(), sequence = sequence + 1
       where account_id = $1 and provider = 'local' and external_id = $2 and cancelled_at is null`,
      [accountId, eventId],
    );
  },
};

/**
 * The provider of a host's calendar: their connected Google Calendar when they have one and Google is configured
 * (GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET), else the local one.
 */
export async function providerFor(db: Sql, accountId: string): Promise<CalendarProvider> {
  if (!googleConfigured()) return localProvider;
  const connection = await getGoogleConnection(db, accountId);
  if (!connection) return localProvider;
  return googleProvider({
    // freeBusy counted the cancelled event as busy; a fresh sync frees the slot now rather than at the next run.
    afterDelete: async (sql) => {
      await syncConnection(sql, connection.id);
    },
  });
}
