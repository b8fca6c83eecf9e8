import { z } from 'zod';
import { isValidTimeZone } from '../slots/slots';

export const USERNAME_PATTERN = /^[a-z0-9](?:[a-z0-9_-]{0,38}[a-z0-9])?$/;

export const Username = z
  .string()
  .regex(
    USERNAME_PATTERN,
    'must be 1-40 lowercase letters, digits, "-" or "_", starting and ending with a letter or digit',
  );

export const TimeZone = z.string().refine(isValidTimeZone, 'must be an IANA time zone name such as "Europe/Berlin"');

/** A host's profile as the dashboard edits it (and the admin import writes it). */
export const AccountInput = z.object({
  email: z.email().max(320),
  password: z.string().min(8, 'must be at least 8 characters').max(200).optional(),
  username: Username,
  full_name: z.string().trim().max(200).nullable().default(null),
  bio: z.string().max(5000).nullable().default(null),
  avatar_url: z
    .url({ protocol: /^https?$/ })
    .max(2000)
    .nullable()
    .default(null),
  timezone: TimeZone.default('UTC'),
});
export type AccountInput = z.infer<typeof AccountInput>;
