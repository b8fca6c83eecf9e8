import { z } from 'zod';
import { AccountInput } from '../accounts/schema';
import { ApiKeyInput } from '../api-keys/schema';
import { AvailabilitySetInput } from '../availability/schema';
import { BookingPageInput } from '../booking-pages/schema';
import { BusyEventInput } from '../calendar/schema';

export const ImportHost = AccountInput.extend({
  id: z.uuid().optional(),
  availability: z.array(AvailabilitySetInput).default([]),
  pages: z.array(BookingPageInput).default([]),
  api_keys: z.array(ApiKeyInput).default([]),
  calendar_events: z.array(BusyEventInput).default([]),
}).strict();

export const ImportTeam = z
  .object({
    name: z.string().trim().min(1).max(200),
    members: z.array(z.string()).default([]),
  })
  .strict();

/** The admin CLI's `import` document: hosts with everything they own, and teams by member username. */
export const ImportDocument = z
  .object({
    hosts: z.array(ImportHost).default([]),
    teams: z.array(ImportTeam).default([]),
  })
  .strict();
export type ImportDocument = z.infer<typeof ImportDocument>;

/** `hosts[0].pages[1].slug` from a zod issue path. */
export function formatPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((out, part) => {
    if (typeof part === 'number') return `${out}[${part}]`;
    return out ? `${out}.${String(part)}` : String(part);
  }, '');
}
