// The booking form's contract between the page (client component) and its server action: field names and the
// state the action returns. No imports, so the client bundle can use it.

/** Names of the form fields; an answer to question `id` is `answer.<id>`. */
export const FIELDS = { start: 'start', end: 'end', timeZone: 'tz', name: 'name', email: 'email' } as const;
export const ANSWER_PREFIX = 'answer.';

export type BookingFormState = {
  /** A message for the guest, shown next to the form. */
  error: string | null;
  /** What the guest typed, so a failed attempt does not clear the form. */
  values: Record<string, string>;
  /** The slot the error belongs to: once the guest picks another slot, the old error no longer applies. */
  slotStart: string | null;
};

export const INITIAL_FORM_STATE: BookingFormState = { error: null, values: {}, slotStart: null };
