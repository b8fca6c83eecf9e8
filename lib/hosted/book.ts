// A guest's booking from the hosted page. The page is the service's own client, so on top of createBooking's rules
// (those of a publishable key: the slot must be offered right now, guest limit, 409s) it enforces what the API
// leaves to its callers: access to private and team pages, and required questions (spec: Question `is_required`).
import { listQuestions, type Question } from '../booking-pages/queries';
import { createBooking, SLOT_NOT_OFFERED, SLOT_TAKEN } from '../bookings/create';
import type { BookingRecord } from '../bookings/queries';
import { type CreateBookingBody, LIMITS, parseCreateBookingBody } from '../bookings/schema';
import type { Db } from '../db/client';
import { ApiError } from '../http/errors';
import { isValidTimeZone } from '../slots/slots';
import { pageAccess, TEAM_ONLY_MESSAGE } from './access';
import type { HostedPage } from './page';
import { isDatabaseTimeZone } from './queries';

export type HostedBookingInput = {
  start: string;
  end: string;
  guestName: string;
  guestEmail: string;
  timeZone: string;
  /** Raw form values by question id; a checked checkbox is "on". */
  answers: Record<string, string>;
};

export const NEEDS_CODE_MESSAGE = 'Enter the access code of this page first.';

// Same practical check as the API's guestEmail (lib/bookings/schema.ts), for questions of type email.
const EMAIL = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:"]+$/;

export async function bookOnHostedPage(
  db: Db,
  page: HostedPage,
  input: HostedBookingInput,
  accessCookie: string | undefined,
  now = new Date(),
): Promise<BookingRecord> {
  const access = pageAccess(page, accessCookie);
  if (access === 'team-only') throw new ApiError(403, TEAM_ONLY_MESSAGE);
  if (access === 'needs-code') throw new ApiError(403, NEEDS_CODE_MESSAGE);

  const body = parseGuestFields(page, input);
  const responses = answersOf(await listQuestions(db, page.id), input.answers);
  const timeZone = input.timeZone.trim();
  const guestTimezone = isValidTimeZone(timeZone) && (await isDatabaseTimeZone(db, timeZone)) ? timeZone : null;
  try {
    return await createBooking(
      db,
      { accountId: page.user_id, requireOfferedSlot: true },
      { ...body, responses, guestTimezone },
      now,
    );
  } catch (error) {
    // The guest picked the slot from a list that was current when the page loaded, so "not offered" means
    // someone took it (or it started) since; the API's "fetch the slots again" wording is for integrations.
    if (error instanceof ApiError && error.status === 409 && error.message === SLOT_NOT_OFFERED) {
      throw new ApiError(409, SLOT_TAKEN);
    }
    throw error;
  }
}

/** Name, email and slot through the API's own validation, with its messages reworded for a guest. */
function parseGuestFields(page: HostedPage, input: HostedBookingInput): CreateBookingBody {
  if (input.guestName.trim() === '') throw new ApiError(400, 'Please enter your name.');
  if (input.guestEmail.trim() === '') throw new ApiError(400, 'Please enter your email address.');
  if (input.start === '' || input.end === '') throw new ApiError(400, 'Please pick a time.');
  try {
    return parseCreateBookingBody({
      bookingPageId: page.id,
      guestName: input.guestName,
      guestEmail: input.guestEmail,
      startTime: input.start,
      endTime: input.end,
    });
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    if (error.message.includes('guestEmail')) throw new ApiError(400, 'Please enter a valid email address.');
    if (error.message.includes('guestName')) throw new ApiError(400, error.message.replace('`guestName`', 'Your name'));
    if (error.message.includes('startTime')) throw new ApiError(400, 'Please pick a time.');
    throw error;
  }
}

/** The answers createBooking saves, in question order; skipped optional questions are left out (spec: responses). */
export function answersOf(questions: Question[], raw: Record<string, string>): CreateBookingBody['responses'] {
  const responses: CreateBookingBody['responses'] = [];
  for (const question of questions) {
    const value = raw[question.id] ?? '';
    const answer = question.question_type === 'checkbox' ? (value === '' ? '' : 'Yes') : value.trim();
    const label = `“${question.question_text}”`;
    if (answer === '') {
      if (question.is_required) {
        throw new ApiError(
          400,
          question.question_type === 'checkbox' ? `Please tick ${label}.` : `Please answer ${label}.`,
        );
      }
      continue;
    }
    if (answer.length > LIMITS.answer) {
      throw new ApiError(400, `Your answer to ${label} must be at most ${LIMITS.answer} characters.`);
    }
    if (question.question_type === 'select' && question.options && !question.options.includes(answer)) {
      throw new ApiError(400, `Please choose one of the options for ${label}.`);
    }
    if (question.question_type === 'email' && !EMAIL.test(answer)) {
      throw new ApiError(400, `Please enter an email address for ${label}.`);
    }
    responses.push({ questionId: question.id, answer });
  }
  return responses;
}
