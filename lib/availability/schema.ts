import { z } from 'zod';
import type { Weekday } from '../slots/slots';

export const WEEKDAYS: readonly Weekday[] = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];

const HHMM = /^(?:[01]\d|2[0-3]):[0-5]\d$|^24:00$/;
const Time = z.string().regex(HHMM, 'must be a time "HH:MM" (00:00-24:00)');

/** ["09:00", "17:00"]: host-local wall-clock time; an interval ends on its own day (24:00 at the latest). */
export const IntervalTuple = z
  .tuple([Time, Time])
  .refine(([start, end]) => start < end, 'start must be before end (intervals cannot cross midnight)');

export const CalendarDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date "YYYY-MM-DD"')
  .refine((value) => {
    const date = new Date(`${value}T00:00:00Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
  }, 'must be a real calendar date');

export const WeeklyInput = z
  .object(Object.fromEntries(WEEKDAYS.map((day) => [day, z.array(IntervalTuple).max(48).optional()])))
  .strict();

export const AvailabilitySetInput = z
  .object({
    name: z.string().trim().min(1).max(200),
    weekly: WeeklyInput.default({}),
    overrides: z.record(CalendarDate, z.array(IntervalTuple).max(48)).default({}),
  })
  .strict();
export type AvailabilitySetInput = z.infer<typeof AvailabilitySetInput>;

/** What a new host gets when they define nothing: Monday to Friday, 09:00-17:00 in their time zone. */
export const DEFAULT_AVAILABILITY: AvailabilitySetInput = {
  name: 'Working hours',
  weekly: Object.fromEntries(WEEKDAYS.slice(0, 5).map((day) => [day, [['09:00', '17:00']]])),
  overrides: {},
};
