import { getProfileByUsername } from '@/lib/accounts/queries';
import { listProfilePages } from '@/lib/booking-pages/queries';
import { json, methodNotAllowed, withApiKey } from '@/lib/http/api';
import { preflight } from '@/lib/http/cors';
import { ApiError } from '@/lib/http/errors';

const METHODS = ['GET'];

// GET /embed/booking - listPublicBookingPages (legacy, deprecated). The one endpoint that is not scoped to the
// key's account: it shows any user's public profile, as the older embed client expects. Not wrapped in `data`.
export const GET = withApiKey({ scopes: ['booking_pages:read'], methods: METHODS }, async ({ db, url }) => {
  const username = url.searchParams.get('username');
  if (!username) throw new ApiError(400, 'Missing required `username` query param');
  const profile = await getProfileByUsername(db, username);
  if (!profile) throw new ApiError(404, 'User not found');
  const { id, full_name, bio, avatar_url } = profile;
  return json({
    userProfile: { id, username: profile.username, full_name, bio, avatar_url },
    bookingPages: await listProfilePages(db, profile.id),
  });
});

export const OPTIONS = preflight(METHODS);
export const POST = methodNotAllowed(METHODS);
export const PUT = methodNotAllowed(METHODS);
export const PATCH = methodNotAllowed(METHODS);
export const DELETE = methodNotAllowed(METHODS);
