import { z } from 'zod';

export const SLUG_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/;

export const Slug = z
  .string()
  .max(100)
  .regex(SLUG_PATTERN, 'must be lowercase letters, digits and single hyphens between them');

export const QuestionInput = z
  .object({
    id: z.uuid().optional(),
    question_text: z.string().trim().min(1).max(1000),
    question_type: z
      .string()
      .regex(/^[a-z_]{1,40}$/, 'must be a lowercase type name such as "textarea" or "select"')
      .default('textarea'),
    options: z.array(z.string().min(1).max(200)).max(100).nullable().default(null),
    is_required: z.boolean().default(false),
    order_index: z.number().int().min(0).optional(),
  })
  .strict()
  .refine((q) => q.question_type !== 'select' || (q.options?.length ?? 0) > 0, {
    message: 'a select question needs at least one option',
    path: ['options'],
  });
export type QuestionInput = z.infer<typeof QuestionInput>;

/** A booking page as the dashboard edits it; field names are the API's. */
export const BookingPageInput = z
  .object({
    id: z.uuid().optional(),
    slug: Slug,
    title: z.string().trim().min(1).max(200),
    description: z.string().max(10000).nullable().default(null),
    duration_minutes: z.number().int().min(1).max(1440),
    booking_type: z.enum(['direct', 'approval']).default('direct'),
    max_days_ahead: z.number().int().min(0).max(3650).nullable().default(60),
    buffer_time_minutes: z.number().int().min(0).max(1440).nullable().default(0),
    visibility: z.enum(['public', 'private', 'team']).default('public'),
    access_code: z.string().min(4, 'must be at least 4 characters').max(100).nullable().default(null),
    show_access_code_prompt: z.boolean().default(true),
    allowed_team: z.string().trim().min(1).nullable().default(null),
    auto_generate_meet_link: z.boolean().nullable().default(false),
    is_active: z.boolean().nullable().default(true),
    show_on_profile: z.boolean().default(true),
    availability: z.string().trim().min(1).optional(),
    created_at: z.iso.datetime({ offset: true }).optional(),
    questions: z.array(QuestionInput).max(50).default([]),
  })
  .strict()
  .refine((p) => p.visibility !== 'private' || p.access_code !== null, {
    message: 'a private page needs an access_code',
    path: ['access_code'],
  })
  .refine((p) => p.visibility !== 'team' || p.allowed_team !== null, {
    message: 'a team page needs an allowed_team',
    path: ['allowed_team'],
  });
export type BookingPageInput = z.infer<typeof BookingPageInput>;
