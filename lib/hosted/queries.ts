import type { Sql } from '../db/client';

/** What the hosted page needs of a booking page beyond slot computation: who may open it, and its text. */
export type PageAccessFields = {
  description: string | null;
  visibility: 'public' | 'private' | 'team';
  access_code_hash: string | null;
  show_access_code_prompt: boolean;
  allowed_team_id: string | null;
};

export async function getPageAccessFields(db: Sql, pageId: string): Promise<PageAccessFields | null> {
  const { rows } = await db.query<PageAccessFields>(
    `select description, visibility, access_code_hash, show_access_code_prompt, allowed_team_id
     from booking_pages where id = $1`,
    [pageId],
  );
  return rows[0] ?? null;
}

/** The part of a booking its guest sees on the confirmation page: no name or email (the URL may be shared). */
export type GuestBooking = {
  id: string;
  status: 'pending' | 'confirmed' | 'cancelled' | 'completed';
  start_time: Date;
  end_time: Date;
  ext_meet_link: string | null;
  guest_timezone: string | null;
};

export async function getGuestBooking(db: Sql, pageId: string, bookingId: string): Promise<GuestBooking | null> {
  const { rows } = await db.query<GuestBooking>(
    `select id, status, start_time, end_time, ext_meet_link, guest_timezone
     from bookings where id = $1 and booking_page_id = $2`,
    [bookingId, pageId],
  );
  const row = rows[0];
  return row ? { ...row, start_time: new Date(row.start_time), end_time: new Date(row.end_time) } : null;
}

/**
 * bookings.guest_timezone is checked against pg_timezone_names, whose tz database can be older or newer than the
 * browser's; a zone only the browser knows is then stored as null rather than failing the booking.
 */
export async function isDatabaseTimeZone(db: Sql, timeZone: string): Promise<boolean> {
  const { rows } = await db.query<{ ok: boolean }>('select is_iana_timezone($1) as ok', [timeZone]);
  return rows[0]?.ok === true;
}
