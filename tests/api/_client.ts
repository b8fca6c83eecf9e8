// Shared helpers of the HTTP tests in tests/api: requests against a TestServer, response shapes of
// ../shared/spec/booking-api-v1.md, host-local dates, and guards against rate-limit window boundaries.
import assert from 'node:assert/strict';
import { dayTimeline, firstInstantOf, localDayOf, MINUTE_MS, parseDay } from '../../lib/slots/time';
import { apiDocument } from '../helpers/fixtures';
import type { TestServer } from '../helpers/server';

export type KeyHeader = 'bearer' | 'x-service-key';

export type CallOptions = {
  /** The API key; omitted or null sends none. */
  key?: string | null;
  /** How the key is sent (default `Authorization: Bearer`). */
  keyHeader?: KeyHeader;
  /** A value sent as a JSON body (Content-Type: application/json). */
  json?: unknown;
  /** A raw body, sent as is (Content-Type: application/json unless `headers` says otherwise). */
  body?: string;
  headers?: Record<string, string>;
};

export type ApiResponse<T = unknown> = {
  status: number;
  headers: Headers;
  /** Parsed JSON, or undefined when the body is empty or not JSON. */
  body: T;
  text: string;
};

/** One request to `server.api + path`. */
export async function call<T = unknown>(
  server: TestServer,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = {};
  if (options.key !== undefined && options.key !== null) {
    if (options.keyHeader === 'x-service-key') headers['x-service-key'] = options.key;
    else headers.authorization = `Bearer ${options.key}`;
  }
  let body: string | undefined;
  if (options.json !== undefined) body = JSON.stringify(options.json);
  if (options.body !== undefined) body = options.body;
  if (body !== undefined) headers['content-type'] = 'application/json';
  Object.assign(headers, options.headers ?? {});
  const response = await fetch(`${server.api}${path}`, { method, headers, body });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: response.status, headers: response.headers, body: parsed as T, text };
}

/** Asserts a non-2xx response whose body is exactly `{ "error": message }` (message: exact string or pattern). */
export function assertError(response: ApiResponse, status: number, message: string | RegExp, context = ''): void {
  const where = `${context ? `${context}: ` : ''}expected ${status}, got ${response.status} ${response.text}`;
  assert.equal(response.status, status, where);
  assert.match(response.headers.get('content-type') ?? '', /^application\/json/, `${where} (content-type)`);
  const body = response.body as Record<string, unknown> | undefined;
  assert.ok(body !== null && typeof body === 'object' && !Array.isArray(body), where);
  assert.deepEqual(Object.keys(body), ['error'], `${where}: the error body has exactly one key`);
  assert.equal(typeof body.error, 'string', where);
  if (typeof message === 'string') assert.equal(body.error, message, where);
  else assert.match(body.error as string, message, where);
}

export function assertStatus(response: ApiResponse, status: number, context = ''): void {
  assert.equal(response.status, status, `${context ? `${context}: ` : ''}${response.status} ${response.text}`);
}

export type Host = {
  id: string;
  /** The plain API key of that name (seed `api_keys`). */
  key(name: string): string;
  /** The page of that slug: its id and its question ids in order. */
  page(slug: string): { id: string; questions: string[] };
  availability(name: string): string;
};

/** The seeded host `username` of a server, failing loudly on a name the seed does not have. */
export function host(server: TestServer, username: string): Host {
  const seeded = server.seed.hosts[username];
  if (!seeded) throw new Error(`no host ${username} in the seed`);
  const need = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`no ${what} for ${username} in the seed`);
    return value;
  };
  return {
    id: seeded.id,
    key: (name) => need(seeded.api_keys[name], `API key ${name}`),
    page: (slug) => need(seeded.pages[slug], `page ${slug}`),
    availability: (name) => need(seeded.availability[name], `availability ${name}`),
  };
}

export type BusyEvent = { start: string; end: string; title: string };

/** The seed `apiDocument()` with extra busy calendar events and extra pages (created last) for ada. */
export function apiDocumentWith(extra: { adaBusy?: BusyEvent[]; adaPages?: Record<string, unknown>[] }) {
  const document = apiDocument();
  const ada = document.hosts[0] as unknown as { username: string; pages: unknown[]; calendar_events: unknown[] };
  assert.equal(ada.username, 'ada');
  ada.calendar_events.push(...(extra.adaBusy ?? []));
  ada.pages.push(...(extra.adaPages ?? []));
  return document;
}

export const missingScope = (scope: string) => `API key is missing required scope(s): ${scope}`;

// ---------------------------------------------------------------------------------------------------------------
// Shapes of the spec

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Booking and page rows: UTC with a `+00:00` offset and milliseconds (README). */
export const ROW_TS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+00:00$/;
/** Slots: UTC with a `Z` suffix and milliseconds. */
export const SLOT_TS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export type BookingPageItem = {
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

export const PAGE_ITEM_FIELDS = [
  'id',
  'slug',
  'title',
  'description',
  'duration_minutes',
  'booking_type',
  'max_days_ahead',
  'buffer_time_minutes',
  'visibility',
  'auto_generate_meet_link',
  'is_active',
  'created_at',
] as const;

export const PAGE_DETAIL_EXTRA_FIELDS = [
  'user_id',
  'updated_at',
  'availability_set_id',
  'allowed_team_id',
  'show_access_code_prompt',
  'show_on_profile',
] as const;

export type BookingPageDetail = BookingPageItem & {
  user_id: string;
  updated_at: string;
  availability_set_id: string;
  allowed_team_id: string | null;
  show_access_code_prompt: boolean;
  show_on_profile: boolean;
};

export type UserProfile = {
  username: string;
  full_name: string | null;
  bio: string | null;
  avatar_url: string | null;
  timezone: string;
};

export type Question = {
  id: string;
  question_text: string;
  question_type: string;
  options: string[] | null;
  is_required: boolean;
  order_index: number;
};

export type Slot = { start: string; end: string };

export type BookingStatus = 'pending' | 'confirmed' | 'cancelled' | 'completed';

export type Booking = {
  id: string;
  booking_page_id: string;
  user_id: string;
  guest_name: string;
  guest_email: string;
  start_time: string;
  end_time: string;
  status: BookingStatus;
  cancellation_reason: string | null;
  reminder_sent: boolean | null;
  ext_meet_link: string | null;
  ext_calendar_event_id: string | null;
  ext_calendar_id: string | null;
  sync_status: 'not_synced' | 'pending' | 'synced' | 'failed';
  last_synced_at: string | null;
  sync_failure_reason: string | null;
  created_at: string;
  updated_at: string;
};

export type MeetingResponse = { question_id: string; answer: string };
export type BookingDetail = Booking & { meeting_responses: MeetingResponse[] };

export const BOOKING_FIELDS = [
  'id',
  'booking_page_id',
  'user_id',
  'guest_name',
  'guest_email',
  'start_time',
  'end_time',
  'status',
  'cancellation_reason',
  'reminder_sent',
  'ext_meet_link',
  'ext_calendar_event_id',
  'ext_calendar_id',
  'sync_status',
  'last_synced_at',
  'sync_failure_reason',
  'created_at',
  'updated_at',
] as const;

const nullOr = (value: unknown, type: string) => value === null || typeof value === type;

/** Checks every field of the spec's Booking with its type and timestamp format. */
export function assertBookingShape(booking: Booking, context = ''): void {
  const where = `${context} ${JSON.stringify(booking)}`;
  const row = booking as unknown as Record<string, unknown>;
  for (const field of BOOKING_FIELDS) assert.ok(field in row, `${where}: field ${field} is missing`);
  assert.match(booking.id, UUID, where);
  assert.match(booking.booking_page_id, UUID, where);
  assert.match(booking.user_id, UUID, where);
  assert.equal(typeof booking.guest_name, 'string', where);
  assert.equal(typeof booking.guest_email, 'string', where);
  assert.match(booking.start_time, ROW_TS, where);
  assert.match(booking.end_time, ROW_TS, where);
  assert.ok(['pending', 'confirmed', 'cancelled', 'completed'].includes(booking.status), where);
  assert.ok(nullOr(booking.cancellation_reason, 'string'), where);
  assert.ok(nullOr(booking.reminder_sent, 'boolean'), where);
  assert.ok(nullOr(booking.ext_meet_link, 'string'), where);
  if (booking.ext_meet_link !== null) assert.doesNotThrow(() => new URL(booking.ext_meet_link as string), where);
  assert.ok(nullOr(booking.ext_calendar_event_id, 'string'), where);
  assert.ok(nullOr(booking.ext_calendar_id, 'string'), where);
  assert.ok(['not_synced', 'pending', 'synced', 'failed'].includes(booking.sync_status), where);
  if (booking.last_synced_at !== null) assert.match(booking.last_synced_at, ROW_TS, where);
  assert.ok(nullOr(booking.sync_failure_reason, 'string'), where);
  assert.match(booking.created_at, ROW_TS, where);
  assert.match(booking.updated_at, ROW_TS, where);
}

// ---------------------------------------------------------------------------------------------------------------
// Dates in a host's time zone

export const NEW_YORK = 'America/New_York';
export const BERLIN = 'Europe/Berlin';

/** The host-local calendar day `offsetDays` after today in `timeZone`, as YYYY-MM-DD. */
export function hostDay(timeZone: string, offsetDays: number, now = Date.now()): string {
  const today = parseDay(localDayOf(now, timeZone)) as number;
  return new Date(today + offsetDays * 86_400_000).toISOString().slice(0, 10);
}

/** The instant at which the host's wall clock shows `time` ("HH:MM") on `day`. */
export function hostTime(day: string, time: string, timeZone: string): Date {
  const wall = parseDay(day);
  const m = /^(\d{2}):(\d{2})$/.exec(time);
  if (wall === null || !m) throw new RangeError(`bad day/time ${day} ${time}`);
  const instant = firstInstantOf(dayTimeline(timeZone, wall), wall + (Number(m[1]) * 60 + Number(m[2])) * MINUTE_MS);
  if (instant === null) throw new RangeError(`${day} ${time} does not exist in ${timeZone}`);
  return new Date(instant);
}

export const addMinutes = (date: Date, minutes: number) => new Date(date.getTime() + minutes * MINUTE_MS);

/** A slot of `minutes` starting at host-local `time` on `day`, as request timestamps (`Z`, like listSlots). */
export function slotAt(day: string, time: string, minutes: number, timeZone = NEW_YORK): Slot {
  const start = hostTime(day, time, timeZone);
  return { start: start.toISOString(), end: addMinutes(start, minutes).toISOString() };
}

/**
 * The slots a page offers on `day` with nothing booked: every (duration + buffer) minutes from 09:00 host time while
 * the slot ends by 17:00 (the seeded availability of both hosts), as listSlots shows them.
 */
export function dayGrid(day: string, durationMinutes: number, bufferMinutes = 0, timeZone = NEW_YORK): Slot[] {
  const slots: Slot[] = [];
  for (let minute = 9 * 60; minute + durationMinutes <= 17 * 60; minute += durationMinutes + bufferMinutes) {
    const time = `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;
    slots.push(slotAt(day, time, durationMinutes, timeZone));
  }
  return slots;
}

/** The way booking rows show an instant: `2026-12-01T10:00:00.000+00:00`. */
export const rowTime = (iso: string | Date) => new Date(iso).toISOString().replace('Z', '+00:00');

// ---------------------------------------------------------------------------------------------------------------
// Bookings

let emailCounter = 0;
/** A guest email address no other request of this process uses (the guest-email limit is 5 per hour). */
export function uniqueEmail(tag = 'guest'): string {
  emailCounter += 1;
  return `${tag}-${process.pid}-${Date.now().toString(36)}-${emailCounter}@example.com`;
}

export type BookingInput = {
  bookingPageId: string;
  startTime: string;
  endTime: string;
  guestName?: string;
  guestEmail?: string;
  responses?: unknown;
};

export function bookingBody(input: BookingInput): Record<string, unknown> {
  return {
    bookingPageId: input.bookingPageId,
    guestName: input.guestName ?? 'Grace Guest',
    guestEmail: input.guestEmail ?? uniqueEmail(),
    startTime: input.startTime,
    endTime: input.endTime,
    ...(input.responses === undefined ? {} : { responses: input.responses }),
  };
}

export function postBooking(server: TestServer, key: string, input: BookingInput) {
  return call<{ data: Booking }>(server, 'POST', '/bookings', { key, json: bookingBody(input) });
}

/** Creates a booking and asserts 201; returns the booking. */
export async function createBooking(server: TestServer, key: string, input: BookingInput): Promise<Booking> {
  const response = await postBooking(server, key, input);
  assertStatus(response, 201, `createBooking ${JSON.stringify(input)}`);
  return response.body.data;
}

export async function listSlots(server: TestServer, key: string, slug: string, date: string): Promise<Slot[]> {
  const response = await call<{ data: Slot[] }>(server, 'GET', `/booking-pages/${slug}/slots?date=${date}`, { key });
  assertStatus(response, 200, `listSlots ${slug} ${date}`);
  return response.body.data;
}

/** Runs `tasks` with at most `size` requests in flight, keeping the results in order. */
export async function inBatches<T>(count: number, size: number, task: (index: number) => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  for (let from = 0; from < count; from += size) {
    const batch = Array.from({ length: Math.min(size, count - from) }, (_, i) => task(from + i));
    results.push(...(await Promise.all(batch)));
  }
  return results;
}

// ---------------------------------------------------------------------------------------------------------------
// Window boundaries

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Waits until at least `needMs` remain before the next multiple of `windowMs` (UTC-aligned fixed windows: one
 * minute for the key limit, one clock hour for the guest-email limit), so a burst does not straddle two windows.
 */
export async function awaitRoomInWindow(windowMs: number, needMs: number): Promise<void> {
  const left = windowMs - (Date.now() % windowMs);
  if (left < needMs) await sleep(left + 250);
}
