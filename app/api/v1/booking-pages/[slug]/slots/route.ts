import { getPageForBookingBySlug } from '@/lib/booking-pages/queries';
import { json, methodNotAllowed, withApiKey } from '@/lib/http/api';
import { preflight } from '@/lib/http/cors';
import { ApiError } from '@/lib/http/errors';
import { listSlots } from '@/lib/slots/service';

const METHODS = ['GET'];

// GET /booking-pages/{slug}/slots - listSlots
export const GET = withApiKey<{ slug: string }>(
  { scopes: ['booking_pages:slots'], methods: METHODS },
  async ({ db, account, params, url }) => {
    const date = url.searchParams.get('date');
    if (!date) throw new ApiError(400, 'Missing required `date` query param (YYYY-MM-DD)');
    const page = await getPageForBookingBySlug(db, account, params.slug);
    if (!page?.is_active) throw new ApiError(404, 'Booking page not found');
    return json({ data: await listSlots(db, page, date, new Date()) });
  },
);

export const OPTIONS = preflight(METHODS);
export const POST = methodNotAllowed(METHODS);
export const PUT = methodNotAllowed(METHODS);
export const PATCH = methodNotAllowed(METHODS);
export const DELETE = methodNotAllowed(METHODS);
