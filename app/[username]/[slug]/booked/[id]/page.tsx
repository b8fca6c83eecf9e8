import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { getDb } from '@/lib/db/client';
import { formatSlotRange } from '@/lib/hosted/calendar';
import { hostedPath, loadHostedPage } from '@/lib/hosted/page';
import { getGuestBooking } from '@/lib/hosted/queries';
import { UUID_PATTERN } from '@/lib/http/errors';

// Reads the database on every request; never prerendered at build time.
export const dynamic = 'force-dynamic';

// The booking id in the URL is the guest's only proof; keep these pages out of search engines.
export const metadata: Metadata = { title: 'Your booking', robots: { index: false, follow: false } };

const HEADINGS = {
  confirmed: 'Booked',
  pending: 'Requested — the host will confirm',
  cancelled: 'Cancelled',
  completed: 'Completed',
} as const;

export default async function BookedPage({
  params,
}: {
  params: Promise<{ username: string; slug: string; id: string }>;
}) {
  const { username, slug, id } = await params;
  if (!UUID_PATTERN.test(id)) notFound();
  const db = await getDb();
  const page = await loadHostedPage(db, username, slug);
  if (!page) notFound();
  const booking = await getGuestBooking(db, page.id, id);
  if (!booking) notFound();
  const timeZone = booking.guest_timezone ?? page.host_timezone;

  return (
    <section className="card confirmation" aria-labelledby="booked-title">
      <h1 id="booked-title">{HEADINGS[booking.status]}</h1>
      <p>
        <strong>{page.title}</strong> with {page.host_name}
      </p>
      <p>
        {formatSlotRange(booking.start_time, booking.end_time, timeZone)}{' '}
        <span className="muted">({timeZone.replaceAll('_', ' ')})</span>
      </p>
      {booking.status === 'confirmed' && booking.ext_meet_link && (
        <p>
          Meeting link:{' '}
          <a href={booking.ext_meet_link} rel="noopener noreferrer">
            {booking.ext_meet_link}
          </a>
        </p>
      )}
      {booking.status === 'pending' && (
        <p className="muted">Your request is waiting for the host. You will hear from them once they confirm it.</p>
      )}
      {booking.status === 'confirmed' && <p className="muted">A confirmation is on its way to your email.</p>}
      <p>
        <Link href={hostedPath(page)}>Back to {page.title}</Link>
      </p>
    </section>
  );
}
