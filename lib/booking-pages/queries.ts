import type { AccountId } from '../api-keys/auth';
import type { Sql } from '../db/client';
import { rowTimestamp } from '../http/format';
import { SLUG_PATTERN } from './schema';

// Spec: BookingPage (list item) fields, in the spec's order.
const LIST_COLUMNS = `id, slug, title, description, duration_minutes, booking_type, max_days_ahead, buffer_time_minutes,
  visibility, auto_generate_meet_link, is_active, created_at`;
// Spec: BookingPage (detail) adds these six.
const DETAIL_COLUMNS = `${LIST_COLUMNS}, user_id, updated_at, availability_set_id, allowed_team_id,
  show_access_code_prompt, show_on_profile`;

export type BookingPageListItem = {
  id: string;
  slug: string;
  title: string;
  description: string | null;
  duration_minutes: number;
  booking_type: 'direct' | 'approval';
  max_days_ahead: number | null;
  buffer_time_minutes: number | null;
  visibility: 'public' | 'private' | 'team';
  auto_generate_meet_link: boolean | null;
  is_active: boolean | null;
  created_at: string;
};

export type BookingPageDetail = BookingPageListItem & {
  user_id: string;
  updated_at: string;
  availability_set_id: string;
  allowed_team_id: string | null;
  show_access_code_prompt: boolean;
  show_on_profile: boolean;
};

type Timestamps = { created_at: Date; updated_at?: Date };

function withRowTimestamps<T extends Timestamps>(row: T) {
  return {
    ...row,
    created_at: rowTimestamp(row.created_at),
    ...(row.updated_at ? { updated_at: rowTimestamp(row.updated_at) } : {}),
  };
}

/** All pages of the account, newest first, inactive and private ones included (spec: GET /booking-pages). */
export async function listBookingPages(db: Sql, accountId: AccountId): Promise<BookingPageListItem[]> {
  const { rows } = await db.query<BookingPageListItem & Timestamps>(
    `select ${LIST_COLUMNS} from booking_pages where user_id = $1 order by created_at desc, id desc`,
    [accountId],
  );
  return rows.map(withRowTimestamps) as BookingPageListItem[];
}

/** An active page of the account by slug; null for unknown, inactive, or another account's slug. */
export async function getActiveBookingPage(
  db: Sql,
  accountId: AccountId,
  slug: string,
): Promise<BookingPageDetail | null> {
  // A slug no page can have is not looked up (and text Postgres refuses, such as NUL, never reaches it).
  if (!SLUG_PATTERN.test(slug)) return null;
  const { rows } = await db.query<BookingPageDetail & Timestamps>(
    `select ${DETAIL_COLUMNS} from booking_pages where user_id = $1 and slug = $2 and is_active is not false`,
    [accountId, slug],
  );
  const row = rows[0];
  return row ? (withRowTimestamps(row) as BookingPageDetail) : null;
}

export type Question = {
  id: string;
  question_text: string;
  question_type: string;
  options: string[] | null;
  is_required: boolean;
  order_index: number;
};

export async function listQuestions(db: Sql, pageId: string): Promise<Question[]> {
  const { rows } = await db.query<Question>(
    `select id, question_text, question_type, options, is_required, order_index
     from questions where booking_page_id = $1 order by order_index`,
    [pageId],
  );
  return rows;
}

/** What slot computation and booking need of a page and its host, by id or by slug within an account. */
export type PageForBooking = {
  id: string;
  user_id: string;
  slug: string;
  title: string;
  duration_minutes: number;
  booking_type: 'direct' | 'approval';
  max_days_ahead: number | null;
  buffer_time_minutes: number | null;
  auto_generate_meet_link: boolean | null;
  is_active: boolean;
  availability_set_id: string;
  host_timezone: string;
  host_email: string;
  host_name: string;
  host_username: string;
};

const PAGE_FOR_BOOKING = `select p.id, p.user_id, p.slug, p.title, p.duration_minutes, p.booking_type, p.max_days_ahead,
    p.buffer_time_minutes, p.auto_generate_meet_link, p.is_active is not false as is_active, p.availability_set_id,
    a.timezone as host_timezone, a.email as host_email, coalesce(a.full_name, a.username) as host_name,
    a.username as host_username
  from booking_pages p join accounts a on a.id = p.user_id`;

/** What creating a booking's calendar event needs of its page. */
export type PageEventFields = { title: string; user_id: string; auto_generate_meet_link: boolean | null };

export async function getPageEventFields(db: Sql, pageId: string): Promise<PageEventFields | null> {
  const { rows } = await db.query<PageEventFields>(
    'select title, user_id, auto_generate_meet_link from booking_pages where id = $1',
    [pageId],
  );
  return rows[0] ?? null;
}

/** Any page by id, whatever its account: createBooking tells "not yours" (403) from "not found" (400). */
export async function getPageForBooking(db: Sql, pageId: string): Promise<PageForBooking | null> {
  const { rows } = await db.query<PageForBooking>(`${PAGE_FOR_BOOKING} where p.id = $1`, [pageId]);
  return rows[0] ?? null;
}

export async function getPageForBookingBySlug(
  db: Sql,
  accountId: string,
  slug: string,
): Promise<PageForBooking | null> {
  if (!SLUG_PATTERN.test(slug)) return null;
  const { rows } = await db.query<PageForBooking>(`${PAGE_FOR_BOOKING} where p.user_id = $1 and p.slug = $2`, [
    accountId,
    slug,
  ]);
  return rows[0] ?? null;
}

export type ProfilePage = {
  id: string;
  title: string;
  slug: string;
  description: string | null;
  duration_minutes: number;
};

/** Active public pages a host shows on their profile, newest first (the hosted profile and the legacy embed). */
export async function listProfilePages(db: Sql, accountId: string): Promise<ProfilePage[]> {
  const { rows } = await db.query<ProfilePage>(
    `select id, title, slug, description, duration_minutes from booking_pages
     where user_id = $1 and is_active is not false and show_on_profile and visibility = 'public'
     order by created_at desc, id desc`,
    [accountId],
  );
  return rows;
}
