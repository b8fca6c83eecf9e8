import { getBookingRecord, listMeetingResponses, toBooking } from '@/lib/bookings/queries';
import { parseUpdateBookingBody } from '@/lib/bookings/schema';
import { changeBookingStatus } from '@/lib/bookings/update';
import { json, methodNotAllowed, readJson, withApiKey } from '@/lib/http/api';
import { preflight } from '@/lib/http/cors';
import { ApiError, UUID_PATTERN } from '@/lib/http/errors';

const METHODS = ['GET', 'PATCH', 'DELETE'];

// GET /bookings/{id} - getBooking
export const GET = withApiKey<{ id: string }>(
  { scopes: ['bookings:read'], methods: METHODS },
  async ({ db, account, params }) => {
    const booking = UUID_PATTERN.test(params.id) ? await getBookingRecord(db, account, params.id) : null;
    if (!booking) throw new ApiError(404, 'Booking not found');
    return json({ data: { ...toBooking(booking), meeting_responses: await listMeetingResponses(db, booking.id) } });
  },
);

// PATCH /bookings/{id} - updateBooking
export const PATCH = withApiKey<{ id: string }>(
  { scopes: ['bookings:write'], methods: METHODS, failure: 'Failed to update booking' },
  async ({ db, account, params, request }) => {
    const body = parseUpdateBookingBody(await readJson(request));
    const booking = await changeBookingStatus(db, account, params.id, body.status, body.reason);
    return json({ data: toBooking(booking) });
  },
);

// DELETE /bookings/{id} - cancelBooking: like PATCH cancelled, but never stores a reason.
export const DELETE = withApiKey<{ id: string }>(
  { scopes: ['bookings:write'], methods: METHODS },
  async ({ db, account, params }) => {
    await changeBookingStatus(db, account, params.id, 'cancelled', null);
    return json({ success: true });
  },
);

export const OPTIONS = preflight(METHODS);
export const POST = methodNotAllowed(METHODS);
export const PUT = methodNotAllowed(METHODS);
