// Request validation of the bookings endpoints, in the order of the spec's error table (the first failing rule
// gives the message). Hand-written rather than zod because the spec fixes each message and their order.
import { ApiError } from '../http/errors';

export const BOOKING_STATUSES = ['pending', 'confirmed', 'cancelled', 'completed'] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];

// Text limits the spec leaves open (README: REST API choices).
export const LIMITS = { guestName: 200, guestEmail: 320, answer: 5000, responses: 100, reason: 2000 } as const;

export type CreateBookingBody = {
  bookingPageId: string;
  guestName: string;
  guestEmail: string;
  start: Date;
  end: Date;
  responses: { questionId: string; answer: string }[];
};

const ISO_DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/** An ISO 8601 date-time as an instant; without an offset it is UTC. Null for anything else (incl. Feb 30). */
export function parseInstant(value: unknown): Date | null {
  if (typeof value !== 'string') return null;
  const m = ISO_DATE_TIME.exec(value.trim());
  if (!m) return null;
  const [, y, mo, d, h, mi, s = '00', fraction = '0', zone = 'Z'] = m;
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return null;
  const calendar = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d)));
  if (calendar.getUTCFullYear() !== Number(y) || calendar.getUTCMonth() !== Number(mo) - 1) return null;
  if (calendar.getUTCDate() !== Number(d)) return null;
  const offset = zone.toUpperCase() === 'Z' ? 'Z' : normalizeOffset(zone);
  const ms = fraction.padEnd(3, '0').slice(0, 3);
  const instant = new Date(`${y}-${mo}-${d}T${h}:${mi}:${s}.${ms}${offset}`);
  return Number.isNaN(instant.getTime()) ? null : instant;
}

function normalizeOffset(zone: string): string {
  const digits = zone.slice(1).replace(':', '');
  return `${zone[0]}${digits.slice(0, 2)}:${digits.slice(2, 4) || '00'}`;
}

// Practical address check (one @, no spaces or control characters, a dot in the domain); deliverability is the
// mail server's business.
const EMAIL = /^[^\s\p{Cc}@<>()[\]\\,;:"]+@[^\s\p{Cc}@<>()[\]\\,;:"]+\.[^\s\p{Cc}@<>()[\]\\,;:"]+$/u;

// Postgres text cannot hold U+0000: a field carrying one is refused by name rather than failing in the database.
const hasNul = (value: string) => value.includes('\u0000');
const noNul = (field: string) => new ApiError(400, `${field} must not contain NUL characters`);

const isNonEmptyString = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';

export function parseCreateBookingBody(body: unknown): CreateBookingBody {
  const input = (typeof body === 'object' && body !== null && !Array.isArray(body) ? body : {}) as Record<
    string,
    unknown
  >;
  const { bookingPageId, guestName, guestEmail, startTime, endTime, responses } = input;
  if (![bookingPageId, guestName, guestEmail, startTime, endTime].every(isNonEmptyString)) {
    throw new ApiError(400, 'Missing required fields: bookingPageId, guestName, guestEmail, startTime, endTime');
  }
  const name = (guestName as string).trim();
  if (name.length > LIMITS.guestName) {
    throw new ApiError(400, `\`guestName\` must be at most ${LIMITS.guestName} characters`);
  }
  if (hasNul(name)) throw noNul('`guestName`');
  const email = (guestEmail as string).trim();
  if (email.length > LIMITS.guestEmail || !EMAIL.test(email)) {
    throw new ApiError(400, '`guestEmail` must be a valid email address');
  }
  const start = parseInstant(startTime);
  const end = parseInstant(endTime);
  if (!start || !end || end <= start) {
    throw new ApiError(400, '`startTime` and `endTime` must be ISO 8601 timestamps, with `endTime` after `startTime`');
  }
  return {
    bookingPageId: (bookingPageId as string).trim(),
    guestName: name,
    guestEmail: email,
    start,
    end,
    responses: parseResponses(responses),
  };
}

function parseResponses(responses: unknown): CreateBookingBody['responses'] {
  if (responses === undefined || responses === null) return [];
  const shapeError = new ApiError(400, '`responses` must be an array of { questionId, answer }');
  if (!Array.isArray(responses)) throw shapeError;
  if (responses.length > LIMITS.responses) {
    throw new ApiError(400, `\`responses\` must have at most ${LIMITS.responses} answers`);
  }
  return responses.map((item: unknown) => {
    if (typeof item !== 'object' || item === null) throw shapeError;
    const { questionId, answer } = item as Record<string, unknown>;
    if (typeof questionId !== 'string' || questionId === '' || typeof answer !== 'string') throw shapeError;
    if (answer.length > LIMITS.answer) {
      throw new ApiError(400, `each \`answer\` must be at most ${LIMITS.answer} characters`);
    }
    if (hasNul(answer)) throw noNul('each `answer`');
    return { questionId, answer };
  });
}

export type UpdateBookingBody = { status: 'confirmed' | 'cancelled'; reason: string | null };

export function parseUpdateBookingBody(body: unknown): UpdateBookingBody {
  const input = (typeof body === 'object' && body !== null && !Array.isArray(body) ? body : {}) as Record<
    string,
    unknown
  >;
  const { status, reason } = input;
  if (status !== 'confirmed' && status !== 'cancelled') {
    throw new ApiError(400, '`status` must be "confirmed" or "cancelled"');
  }
  if (reason !== undefined && reason !== null && typeof reason !== 'string') {
    throw new ApiError(400, '`reason` must be a string');
  }
  if (typeof reason === 'string' && reason.length > LIMITS.reason) {
    throw new ApiError(400, `\`reason\` must be at most ${LIMITS.reason} characters`);
  }
  if (typeof reason === 'string' && hasNul(reason)) throw noNul('`reason`');
  return { status, reason: typeof reason === 'string' && reason !== '' ? reason : null };
}

export const DEFAULT_LIST_LIMIT = 50;
export const MAX_LIST_LIMIT = 200;

export function parseListBookingsQuery(params: URLSearchParams): { status: BookingStatus | null; limit: number } {
  const status = params.get('status');
  if (status !== null && !(BOOKING_STATUSES as readonly string[]).includes(status)) {
    throw new ApiError(400, `\`status\` must be one of ${BOOKING_STATUSES.join(', ')}`);
  }
  const rawLimit = params.get('limit');
  let limit = DEFAULT_LIST_LIMIT;
  if (rawLimit !== null) {
    if (!/^\d+$/.test(rawLimit) || Number(rawLimit) < 1) throw new ApiError(400, '`limit` must be a positive integer');
    limit = Math.min(Number(rawLimit), MAX_LIST_LIMIT);
  }
  return { status: status as BookingStatus | null, limit };
}
