'use server';

import { refresh } from 'next/cache';
import { cookies } from 'next/headers';
import { redirect } from 'next/navigation';
import { MEETING_FAILED } from '@/lib/bookings/create';
import { getDb } from '@/lib/db/client';
import { ACCESS_COOKIE } from '@/lib/hosted/access';
import { bookOnHostedPage } from '@/lib/hosted/book';
import { ANSWER_PREFIX, type BookingFormState, FIELDS } from '@/lib/hosted/form';
import { hostedPath, loadHostedPage } from '@/lib/hosted/page';
import { ApiError } from '@/lib/http/errors';

// Book the picked slot of /{username}/{slug}. Everything the form sends is re-checked: page, access, slot, answers.
export async function bookSlot(
  username: string,
  slug: string,
  _previous: BookingFormState,
  formData: FormData,
): Promise<BookingFormState> {
  const values: Record<string, string> = {};
  for (const [name, value] of formData) {
    if (typeof value === 'string' && !name.startsWith('$')) values[name] = value;
  }
  const field = (name: string) => values[name] ?? '';
  const answers: Record<string, string> = {};
  for (const [name, value] of Object.entries(values)) {
    if (name.startsWith(ANSWER_PREFIX)) answers[name.slice(ANSWER_PREFIX.length)] = value;
  }
  const failed = (error: string): BookingFormState => ({ error, values, slotStart: field(FIELDS.start) });

  const db = await getDb();
  const page = await loadHostedPage(db, username, slug);
  if (!page) return failed('This booking page is no longer available.');
  let bookingId: string;
  try {
    const booking = await bookOnHostedPage(
      db,
      page,
      {
        start: field(FIELDS.start),
        end: field(FIELDS.end),
        guestName: field(FIELDS.name),
        guestEmail: field(FIELDS.email),
        timeZone: field(FIELDS.timeZone),
        answers,
      },
      (await cookies()).get(ACCESS_COOKIE)?.value,
    );
    bookingId = booking.id;
  } catch (error) {
    if (!(error instanceof ApiError)) {
      console.error('[hosted] booking failed:', error);
      return failed('Something went wrong on our side. Please try again.');
    }
    // The slot list the guest sees is stale: re-render it along with the answer.
    if (error.status === 409) refresh();
    if (error.message === MEETING_FAILED) {
      // Spec, createBooking rule 7: the booking exists; only its meeting link is missing.
      return failed('Your booking was saved, but its meeting link could not be created. The host will follow up.');
    }
    return failed(error.message);
  }
  redirect(`${hostedPath(page)}/booked/${bookingId}`);
}
