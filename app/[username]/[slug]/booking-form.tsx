'use client';

import { type ReactNode, useActionState } from 'react';
import { ANSWER_PREFIX, type BookingFormState, FIELDS, INITIAL_FORM_STATE } from '@/lib/hosted/form';

export type FormQuestion = {
  id: string;
  text: string;
  type: string;
  options: string[] | null;
  required: boolean;
};

type Props = {
  action: (state: BookingFormState, formData: FormData) => Promise<BookingFormState>;
  slot: { start: string; end: string; available: boolean };
  timeZone: string;
  questions: FormQuestion[];
  approval: boolean;
  /** Shown when the picked slot is not offered any more (before or after a submit). */
  unavailableMessage: string;
};

// Text limits of the API (README: REST API choices), so the browser stops an over-long value before the server does.
const MAX = { name: 200, email: 320, answer: 5000 };

/**
 * The guest's details for the picked slot. The server action answers with an error and what was typed, so a
 * refused attempt (slot taken, guest limit, bad input) keeps the form filled; success redirects to the confirmation.
 */
export function BookingForm({ action, slot, timeZone, questions, approval, unavailableMessage }: Props) {
  const [state, formAction, pending] = useActionState(action, INITIAL_FORM_STATE);
  const values = state.values;
  const error = state.error !== null && state.slotStart === slot.start ? state.error : null;
  const message = error ?? (slot.available ? null : unavailableMessage);

  return (
    <form action={formAction} className="booking-form" aria-describedby={message ? 'booking-error' : undefined}>
      <input type="hidden" name={FIELDS.start} value={slot.start} />
      <input type="hidden" name={FIELDS.end} value={slot.end} />
      <input type="hidden" name={FIELDS.timeZone} value={timeZone} />
      <div className="field">
        <label htmlFor="guest-name">Your name</label>
        <input
          id="guest-name"
          name={FIELDS.name}
          required
          maxLength={MAX.name}
          autoComplete="name"
          defaultValue={values[FIELDS.name] ?? ''}
        />
      </div>
      <div className="field">
        <label htmlFor="guest-email">Email</label>
        <input
          id="guest-email"
          name={FIELDS.email}
          type="email"
          required
          maxLength={MAX.email}
          autoComplete="email"
          defaultValue={values[FIELDS.email] ?? ''}
        />
      </div>
      {questions.map((question) => (
        <QuestionField key={question.id} question={question} value={values[`${ANSWER_PREFIX}${question.id}`]} />
      ))}
      {message && (
        <p id="booking-error" className="form-error" role="alert">
          {message}
        </p>
      )}
      <button type="submit" className="button" disabled={pending || !slot.available}>
        {pending ? 'Booking…' : approval ? 'Request booking' : 'Book'}
      </button>
    </form>
  );
}

/** One question by its type (spec: Question `question_type`); unknown types are a plain text input. */
function QuestionField({ question, value }: { question: FormQuestion; value: string | undefined }) {
  const id = `question-${question.id}`;
  const name = `${ANSWER_PREFIX}${question.id}`;
  const label = (
    <label htmlFor={id}>
      {question.text}
      {question.required ? (
        <span className="required" aria-hidden="true">
          {' '}
          *
        </span>
      ) : (
        <span className="muted"> (optional)</span>
      )}
    </label>
  );
  const common = { id, name, required: question.required };

  if (question.type === 'checkbox') {
    return (
      <div className="field field-checkbox">
        <input type="checkbox" {...common} defaultChecked={value !== undefined && value !== ''} />
        {label}
      </div>
    );
  }
  let control: ReactNode;
  if (question.type === 'textarea') {
    control = <textarea {...common} rows={3} maxLength={MAX.answer} defaultValue={value ?? ''} />;
  } else if (question.type === 'select' && question.options) {
    control = (
      // React applies a select's defaultValue only on mount: a new key remounts it with the answer sent back.
      <select {...common} key={value ?? ''} defaultValue={value ?? ''}>
        <option value="">Choose…</option>
        {question.options.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </select>
    );
  } else {
    const type = question.type === 'email' ? 'email' : question.type === 'phone' ? 'tel' : 'text';
    const autoComplete = type === 'tel' ? 'tel' : type === 'email' ? 'email' : 'off';
    control = (
      <input {...common} type={type} maxLength={MAX.answer} autoComplete={autoComplete} defaultValue={value ?? ''} />
    );
  }
  return (
    <div className="field">
      {label}
      {control}
    </div>
  );
}
