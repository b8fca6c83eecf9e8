import { startCalendarSync } from '../calendar/sync';
import { getDb } from '../db/client';
import { startDispatcher } from '../email/dispatcher';

/**
 * Opens and migrates the database when the server starts, so a locked PGlite directory or an unreachable
 * DATABASE_URL is reported at once rather than on the first request.
 */
export async function openAtStartup(): Promise<void> {
  try {
    const db = await getDb();
    console.log(`[db] ready (${db.kind})`);
    startDispatcher(db);
    startCalendarSync(db);
  } catch (error) {
    console.error(`[db] ${error instanceof Error ? error.message : String(error)}`);
    // Another process owns the embedded database: serving would only answer 500s.
    if ((error as Error).name === 'DataDirInUseError') process.exit(1);
  }
}
