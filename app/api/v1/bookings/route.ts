import { createBooking } from '@/lib/bookings/create';
import { listBookingsJson, toBooking } from '@/lib/bookings/queries';
import { parseCreateBookingBody, parseListBookingsQuery } from '@/lib/bookings/schema';
import { json, methodNotAllowed, readJson, withApiKey } from '@/lib/http/api';
import { preflight } from '@/lib/http/cors';

const METHODS = ['GET', 'POST'];

// GET /bookings - listBookings
export const GET = withApiKey(
  { scopes: ['bookings:read'], methods: METHODS, failure: 'Failed to fetch bookings' },
  async ({ db, account, url }) => {
    const bookings = await listBookingsJson(db, account, parseListBookingsQuery(url.searchParams));
    return new Response(`{"data":${bookings}}`, { headers: { 'Content-Type': 'application/json' } });
  },
);

// POST /bookings - createBooking
export const POST = withApiKey({ scopes: ['bookings:create'], methods: METHODS }, async ({ db, key, request }) => {
  const body = parseCreateBookingBody(await readJson(request));
  const actor = { accountId: key.accountId, requireOfferedSlot: key.type === 'publishable' };
  const booking = await createBooking(db, actor, body);
  return json({ data: toBooking(booking) }, 201);
});

export const OPTIONS = preflight(METHODS);
export const PUT = methodNotAllowed(METHODS);
export const PATCH = methodNotAllowed(METHODS);
export const DELETE = methodNotAllowed(METHODS);
