import { z } from 'zod';
import { SCOPES, SECRET_ONLY_SCOPES } from './keys';

export const ApiKeyInput = z
  .object({
    name: z.string().trim().min(1).max(100),
    type: z.enum(['secret', 'publishable']),
    scopes: z.array(z.enum(SCOPES)).min(1).optional(),
    expires_at: z.iso.datetime({ offset: true }).nullable().optional(),
    revoked: z.boolean().default(false),
  })
  .strict()
  .refine((key) => key.type === 'secret' || !key.scopes?.some((scope) => SECRET_ONLY_SCOPES.includes(scope)), {
    message: 'a publishable key can never hold bookings:read or bookings:write',
    path: ['scopes'],
  });
export type ApiKeyInput = z.infer<typeof ApiKeyInput>;
