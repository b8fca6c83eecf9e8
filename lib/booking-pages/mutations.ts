import { hashPassword } from '../auth/password';
import type { Sql } from '../db/client';
import type { BookingPageInput, QuestionInput } from './schema';

export type NewBookingPage = Omit<BookingPageInput, 'availability' | 'allowed_team' | 'questions'> & {
  availability_set_id: string;
  allowed_team_id: string | null;
};

export async function createBookingPage(tx: Sql, accountId: string, input: NewBookingPage): Promise<{ id: string }> {
  const accessCodeHash = input.access_code ? await hashPassword(input.access_code) : null;
  const { rows } = await tx.query<{ id: string }>(
    `insert into booking_pages (id, user_id, slug, title, description, duration_minutes, booking_type, max_days_ahead,
       buffer_time_minutes, visibility, access_code_hash, show_access_code_prompt, allowed_team_id,
       auto_generate_meet_link, is_active, show_on_profile, availability_set_id, created_at, updated_at)
     values (coalesce($1::uuid, gen_random_uuid()), $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17,
       coalesce($18::timestamptz, clock_timestamp()), coalesce($18::timestamptz, clock_timestamp()))
     returning id`,
    [
      input.id ?? null,
      accountId,
      input.slug,
      input.title,
      input.description,
      input.duration_minutes,
      input.booking_type,
      input.max_days_ahead,
      input.buffer_time_minutes,
      input.visibility,
      accessCodeHash,
      input.show_access_code_prompt,
      input.allowed_team_id,
      input.auto_generate_meet_link,
      input.is_active,
      input.show_on_profile,
      input.availability_set_id,
      input.created_at ?? null,
    ],
  );
  return rows[0] as { id: string };
}

/** Adds questions in display order; order_index defaults to the position in the list. Returns ids in that order. */
export async function addQuestions(tx: Sql, pageId: string, questions: QuestionInput[]): Promise<string[]> {
  const ordered = questions
    .map((question, position) => ({ ...question, order_index: question.order_index ?? position }))
    .sort((a, b) => a.order_index - b.order_index);
  const ids: string[] = [];
  for (const question of ordered) {
    const { rows } = await tx.query<{ id: string }>(
      `insert into questions (id, booking_page_id, question_text, question_type, options, is_required, order_index)
       values (coalesce($1::uuid, gen_random_uuid()), $2, $3, $4, $5, $6, $7) returning id`,
      [
        question.id ?? null,
        pageId,
        question.question_text,
        question.question_type,
        question.options === null ? null : JSON.stringify(question.options),
        question.is_required,
        question.order_index,
      ],
    );
    ids.push((rows[0] as { id: string }).id);
  }
  return ids;
}
