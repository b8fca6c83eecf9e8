import { getProfileById } from '@/lib/accounts/queries';
import { getActiveBookingPage, listQuestions } from '@/lib/booking-pages/queries';
import { json, methodNotAllowed, withApiKey } from '@/lib/http/api';
import { preflight } from '@/lib/http/cors';
import { ApiError } from '@/lib/http/errors';

const METHODS = ['GET'];

// GET /booking-pages/{slug} - getBookingPage
export const GET = withApiKey<{ slug: string }>(
  { scopes: ['booking_pages:read'], methods: METHODS },
  async ({ db, account, params }) => {
    const bookingPage = await getActiveBookingPage(db, account, params.slug);
    if (!bookingPage) throw new ApiError(404, 'Booking page not found');
    const [profile, questions] = await Promise.all([
      getProfileById(db, bookingPage.user_id),
      listQuestions(db, bookingPage.id),
    ]);
    if (!profile) throw new ApiError(404, 'Booking page not found');
    const { username, full_name, bio, avatar_url, timezone } = profile;
    const userProfile = { username, full_name, bio, avatar_url, timezone };
    return json({ data: { bookingPage, userProfile, questions } });
  },
);

export const OPTIONS = preflight(METHODS);
export const POST = methodNotAllowed(METHODS);
export const PUT = methodNotAllowed(METHODS);
export const PATCH = methodNotAllowed(METHODS);
export const DELETE = methodNotAllowed(METHODS);
