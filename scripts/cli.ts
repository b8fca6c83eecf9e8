// Admin CLI: `npm run cli -- <command>`. Results go to stdout as JSON; logs and errors go to stderr.
import fs from 'node:fs';
import { getProfileByUsername } from '../lib/accounts/queries';
import { googleConfigured, googleRedirectUri } from '../lib/calendar/config';
import { masterKey } from '../lib/calendar/encryption';
import { rotateFeedToken } from '../lib/calendar/feed';
import { addIcalConnection, removeConnection } from '../lib/calendar/mutations';
import { googleConsentUrl, NotConfiguredError } from '../lib/calendar/oauth';
import { listConnections } from '../lib/calendar/queries';
import { type FeedError, normalizeFeedUrl, syncAll, syncBusy, syncConnection } from '../lib/calendar/sync';
import { databaseUrl, dataDir } from '../lib/config/env';
import { type Db, openDb } from '../lib/db/client';
import { migrate } from '../lib/db/migrate';
import { seedDemo } from '../lib/demo/seed';
import { ImportError, importDocument } from '../lib/import/import';

const USAGE = `Usage: npm run cli -- <command>
  migrate        apply pending migrations
  import FILE    create hosts, teams, pages, keys... from a JSON document (- for stdin); prints ids and keys as JSON
  demo           create the demo host (once) and print a fresh pair of demo API keys
  calendar:google-connect USERNAME  print the link that connects the host's Google Calendar (valid 15 minutes)
  calendar:feed USERNAME            create or rotate the host's private iCalendar feed and print its URL
  calendar:add-ical USERNAME URL    import busy time from an iCalendar feed (http, https, webcal); syncs it at once
  calendar:sync [USERNAME]          sync busy time now (one host, or all); JSON summary; exit 1 if a sync failed
  calendar:list [USERNAME]          list calendar connections and their sync state
  calendar:remove CONNECTION_ID     remove a calendar connection and its busy times
Database: DATABASE_URL if set, else PGlite in DATA_DIR (default ./.data).`;

function log(message: string) {
  process.stderr.write(`${message}\n`);
}

async function main(argv: string[]): Promise<number> {
  const [command, ...args] = argv;
  if (!command || command === 'help' || command === '--help') {
    log(USAGE);
    return command ? 0 : 2;
  }
  const url = databaseUrl();
  log(`[cli] database: ${url ? 'DATABASE_URL' : `PGlite in ${dataDir()}`}`);

  if (command === 'migrate') {
    const db = await openDb({ databaseUrl: url, migrate: false });
    try {
      const applied = await migrate(db);
      log(applied.length ? `[cli] applied ${applied.join(', ')}` : '[cli] up to date');
      process.stdout.write(`${JSON.stringify({ applied })}\n`);
    } finally {
      await db.close();
    }
    return 0;
  }

  if (command === 'import') {
    const file = args[0];
    if (!file) {
      log('import needs a FILE (or - for stdin)');
      return 2;
    }
    let document: unknown;
    try {
      document = JSON.parse(fs.readFileSync(file === '-' ? 0 : file, 'utf8'));
    } catch (error) {
      log(`[cli] cannot read ${file} as JSON: ${(error as Error).message}`);
      return 1;
    }
    const db = await openDb({ databaseUrl: url });
    try {
      const result = await db.transaction((tx) => importDocument(tx, document));
      process.stdout.write(`${JSON.stringify(result)}\n`);
      return 0;
    } catch (error) {
      if (error instanceof ImportError) {
        log(`[cli] import failed, nothing was written: ${error.message}`);
        return 1;
      }
      throw error;
    } finally {
      await db.close();
    }
  }

  if (command === 'demo') {
    const db = await openDb({ databaseUrl: url });
    try {
      const demo = await seedDemo(db);
      process.stdout.write(`${JSON.stringify(demo)}\n`);
      printDemo(demo);
    } finally {
      await db.close();
    }
    return 0;
  }

  if (command.startsWith('calendar:')) return calendarCommand(command, args, url);

  log(`Unknown command "${command}".\n${USAGE}`);
  return 2;
}

const print = (value: unknown) => process.stdout.write(`${JSON.stringify(value)}\n`);

async function withDb<T>(url: string | undefined, fn: (db: Db) => Promise<T>): Promise<T> {
  const db = await openDb({ databaseUrl: url });
  try {
    return await fn(db);
  } finally {
    await db.close();
  }
}

async function hostId(db: Db, username: string | undefined): Promise<string | null> {
  const profile = username ? await getProfileByUsername(db, username) : null;
  if (!profile) log(`[cli] no host with username "${username ?? ''}"`);
  return profile?.id ?? null;
}

/** The calendar commands (README: Calendars and meeting links). */
async function calendarCommand(command: string, args: string[], url: string | undefined): Promise<number> {
  const [username, extra] = args;
  switch (command) {
    case 'calendar:google-connect': {
      if (!username) return usage('calendar:google-connect USERNAME');
      if (!googleConfigured()) {
        log(`[cli] ${new NotConfiguredError().message}`);
        return 1;
      }
      masterKey(); // a missing or malformed TOKEN_ENCRYPTION_KEY fails here, before the host is sent anywhere
      return withDb(url, async (db) => {
        const id = await hostId(db, username);
        if (!id) return 1;
        const { url: link, expiresAt } = googleConsentUrl(id);
        print({ username, url: link, expires_at: expiresAt.toISOString() });
        log(`\nOpen this link as ${username} before ${expiresAt.toISOString()} to connect Google Calendar:\n  ${link}`);
        log(`(The OAuth client must list this redirect URI: ${googleRedirectUri()})\n`);
        return 0;
      });
    }
    case 'calendar:feed': {
      if (!username) return usage('calendar:feed USERNAME');
      return withDb(url, async (db) => {
        const id = await hostId(db, username);
        if (!id) return 1;
        const feed = await rotateFeedToken(db, id);
        print({ username, feed_url: feed.url });
        log(
          `\nSubscribe to this URL in a calendar app (it is secret; an earlier feed URL no longer works):\n  ${feed.url}\n`,
        );
        return 0;
      });
    }
    case 'calendar:add-ical': {
      if (!username || !extra) return usage('calendar:add-ical USERNAME URL');
      let feedUrl: string;
      try {
        feedUrl = normalizeFeedUrl(extra);
      } catch (error) {
        log(`[cli] ${(error as FeedError).message}`);
        return 2;
      }
      return withDb(url, async (db) => {
        const id = await hostId(db, username);
        if (!id) return 1;
        const connection = await addIcalConnection(db, id, feedUrl);
        const sync = await syncConnection(db, connection.id);
        print({ connection_id: connection.id, created: connection.created, sync });
        if (!sync.ok) log(`[cli] the feed was added, but its first sync failed: ${sync.error}`);
        return 0;
      });
    }
    case 'calendar:sync':
      return withDb(url, async (db) => {
        let results: Awaited<ReturnType<typeof syncAll>>;
        if (username) {
          const id = await hostId(db, username);
          if (!id) return 1;
          results = await syncBusy(db, id);
        } else {
          results = await syncAll(db);
        }
        const failed = results.filter((result) => !result.ok).length;
        print({ synced: results.length - failed, failed, connections: results });
        return failed > 0 ? 1 : 0;
      });
    case 'calendar:list':
      return withDb(url, async (db) => {
        const id = username ? await hostId(db, username) : undefined;
        if (id === null) return 1;
        const connections = await listConnections(db, { accountId: id });
        print(
          connections.map((c) => ({
            id: c.id,
            account_id: c.account_id,
            provider: c.provider,
            source: c.provider === 'google' ? c.calendar_id : feedHost(c.feed_url),
            last_synced_at: c.last_synced_at,
            sync_error: c.sync_error,
          })),
        );
        return 0;
      });
    case 'calendar:remove': {
      const id = username;
      if (!id || !/^[0-9a-f-]{36}$/i.test(id)) return usage('calendar:remove CONNECTION_ID');
      return withDb(url, async (db) => {
        const removed = await removeConnection(db, id);
        print({ removed });
        return removed ? 0 : 1;
      });
    }
    default:
      log(`Unknown command "${command}".\n${USAGE}`);
      return 2;
  }
}

function usage(synopsis: string): number {
  log(`Usage: npm run cli -- ${synopsis}`);
  return 2;
}

// A feed URL is often a secret: only its host is shown.
function feedHost(feedUrl: string | null): string {
  try {
    return new URL(feedUrl ?? '').host;
  } catch {
    return '';
  }
}

export function printDemo(demo: { created: boolean; secretKey: string; publishableKey: string }, port = 3000) {
  const base = `http://localhost:${port}`;
  log(
    [
      '',
      demo.created ? 'Demo data created.' : 'Demo data present; previous demo keys were revoked and new ones made.',
      `  Public profile:   ${base}/demo  (book a slot: ${base}/demo/intro)`,
      `  Dashboard:        ${base}/dashboard  (sign in as demo@example.com / demo-password)`,
      `  Secret key:       ${demo.secretKey}`,
      `  Publishable key:  ${demo.publishableKey}`,
      `  Try:              curl -H "Authorization: Bearer ${demo.secretKey}" ${base}/api/v1/booking-pages`,
      '',
    ].join('\n'),
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error) => {
      log(`[cli] ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    },
  );
}
