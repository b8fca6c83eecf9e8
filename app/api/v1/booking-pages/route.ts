import { listBookingPages } from '@/lib/booking-pages/queries';
import { json, methodNotAllowed, withApiKey } from '@/lib/http/api';
import { preflight } from '@/lib/http/cors';

const METHODS = ['GET'];

// GET /booking-pages - listBookingPages
export const GET = withApiKey({ scopes: ['booking_pages:read'], methods: METHODS }, async ({ db, account }) =>
  json({ data: await listBookingPages(db, account) }),
);

export const OPTIONS = preflight(METHODS);
export const POST = methodNotAllowed(METHODS);
export const PUT = methodNotAllowed(METHODS);
export const PATCH = methodNotAllowed(METHODS);
export const DELETE = methodNotAllowed(METHODS);
