import { z } from 'zod';

/** A busy block on the host's calendar (synced or imported); it blocks slots. */
export const BusyEventInput = z
  .object({
    start: z.iso.datetime({ offset: true }),
    end: z.iso.datetime({ offset: true }),
    title: z.string().max(1000).nullable().default(null),
  })
  .strict()
  .refine((event) => Date.parse(event.end) > Date.parse(event.start), {
    message: 'end must be after start',
    path: ['end'],
  });
export type BusyEventInput = z.infer<typeof BusyEventInput>;
