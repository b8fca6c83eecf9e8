import { listHostBookings } from '@/lib/dashboard/queries';
import { getDb } from '@/lib/db/client';
import { formatInZone, requireAccount } from './account';
import { BookingActions } from './booking-actions';

export const dynamic = 'force-dynamic';

export default async function BookingsPage() {
  const account = await requireAccount();
  const bookings = await listHostBookings(await getDb(), account);
  return (
    <>
      <h1>Bookings</h1>
      <p className="muted">Requests waiting for you come first. Times are in {account.timezone}.</p>
      {bookings.length === 0 && <p>No bookings yet.</p>}
      {bookings.map((booking) => (
        <div className="card" key={booking.id}>
          <h2>
            {booking.page_title}: {booking.guest_name}
          </h2>
          <p className="muted">
            {formatInZone(booking.start_time, account.timezone)} · {booking.guest_email} ·{' '}
            <span className={`status status-${booking.status}`}>{booking.status}</span>
            {booking.ext_meet_link && (
              <>
                {' '}
                · <a href={booking.ext_meet_link}>meeting link</a>
              </>
            )}
          </p>
          {booking.cancellation_reason && <p className="muted">Reason: {booking.cancellation_reason}</p>}
          <BookingActions bookingId={booking.id} status={booking.status} />
        </div>
      ))}
    </>
  );
}
