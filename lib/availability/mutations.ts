import type { Sql } from '../db/client';
import { type AvailabilitySetInput, WEEKDAYS } from './schema';

/** Creates a named availability set with its weekly rules and date overrides. */
export async function createAvailabilitySet(
  tx: Sql,
  accountId: string,
  input: AvailabilitySetInput,
): Promise<{ id: string }> {
  const { rows } = await tx.query<{ id: string }>(
    'insert into availability_sets (account_id, name) values ($1, $2) returning id',
    [accountId, input.name],
  );
  const set = rows[0] as { id: string };
  await replaceAvailability(tx, set.id, input);
  return set;
}

/** Replaces all weekly rules and overrides of a set (the dashboard saves the whole week at once). */
export async function replaceAvailability(
  tx: Sql,
  setId: string,
  input: Pick<AvailabilitySetInput, 'weekly' | 'overrides'>,
): Promise<void> {
  await tx.query('delete from availability_rules where availability_set_id = $1', [setId]);
  await tx.query('delete from availability_overrides where availability_set_id = $1', [setId]);
  const weekdays: number[] = [];
  const starts: string[] = [];
  const ends: string[] = [];
  WEEKDAYS.forEach((day, index) => {
    for (const [start, end] of input.weekly[day] ?? []) {
      weekdays.push(index + 1);
      starts.push(start);
      ends.push(end);
    }
  });
  if (weekdays.length > 0) {
    await tx.query(
      `insert into availability_rules (availability_set_id, weekday, start_time, end_time)
       select $1, * from unnest($2::smallint[], $3::time[], $4::time[])`,
      [setId, weekdays, starts, ends],
    );
  }
  const dates: string[] = [];
  const overrideStarts: (string | null)[] = [];
  const overrideEnds: (string | null)[] = [];
  for (const [date, intervals] of Object.entries(input.overrides)) {
    if (intervals.length === 0) {
      dates.push(date);
      overrideStarts.push(null);
      overrideEnds.push(null);
    }
    for (const [start, end] of intervals) {
      dates.push(date);
      overrideStarts.push(start);
      overrideEnds.push(end);
    }
  }
  if (dates.length > 0) {
    await tx.query(
      `insert into availability_overrides (availability_set_id, override_date, start_time, end_time)
       select $1, * from unnest($2::date[], $3::time[], $4::time[])`,
      [setId, dates, overrideStarts, overrideEnds],
    );
  }
}
