'use client';

import { useActionState } from 'react';
import { bookingAction } from './actions';

/** Approve / decline (pending) or cancel (confirmed) one booking; the guest is emailed the outcome. */
export function BookingActions({ bookingId, status }: { bookingId: string; status: string }) {
  const [state, action, pending] = useActionState(bookingAction, null);
  if (status !== 'pending' && status !== 'confirmed') return null;
  return (
    <form action={action} className="row">
      <input type="hidden" name="bookingId" value={bookingId} />
      <input name="reason" placeholder="Reason (optional)" aria-label="Reason" maxLength={2000} />
      {status === 'pending' && (
        <button type="submit" name="action" value="approve" disabled={pending}>
          Approve
        </button>
      )}
      {status === 'pending' && (
        <button type="submit" name="action" value="decline" disabled={pending}>
          Decline
        </button>
      )}
      {status === 'confirmed' && (
        <button type="submit" name="action" value="cancel" disabled={pending}>
          Cancel
        </button>
      )}
      {state?.error && (
        <span role="alert" className="error">
          {state.error}
        </span>
      )}
    </form>
  );
}
