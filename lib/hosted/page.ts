import { getProfileByUsername } from '../accounts/queries';
import { getPageForBookingBySlug, type PageForBooking } from '../booking-pages/queries';
import type { Sql } from '../db/client';
import { getPageAccessFields, type PageAccessFields } from './queries';

/** A booking page as the hosted page at /{username}/{slug} shows it. */
export type HostedPage = PageForBooking & PageAccessFields;

/** The active page `slug` of `username`; null for an unknown user or slug and for an inactive page (all 404). */
export async function loadHostedPage(db: Sql, username: string, slug: string): Promise<HostedPage | null> {
  const profile = await getProfileByUsername(db, username);
  if (!profile) return null;
  const page = await getPageForBookingBySlug(db, profile.id, slug);
  if (!page?.is_active) return null;
  const access = await getPageAccessFields(db, page.id);
  return access ? { ...page, ...access } : null;
}

/** The page's own path, which also scopes its access cookie. */
export function hostedPath(page: Pick<PageForBooking, 'host_username' | 'slug'>): string {
  return `/${encodeURIComponent(page.host_username)}/${encodeURIComponent(page.slug)}`;
}
