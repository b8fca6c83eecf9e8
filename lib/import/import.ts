import { createAccount } from '../accounts/mutations';
import { createApiKey } from '../api-keys/mutations';
import { createAvailabilitySet } from '../availability/mutations';
import { DEFAULT_AVAILABILITY } from '../availability/schema';
import { addQuestions, createBookingPage } from '../booking-pages/mutations';
import { addBusyEvent } from '../calendar/mutations';
import type { Sql } from '../db/client';
import { addTeamMember, createTeam } from '../teams/mutations';
import { formatPath, ImportDocument } from './schema';

export type ImportResult = {
  hosts: Record<
    string,
    {
      id: string;
      pages: Record<string, { id: string; questions: string[] }>;
      availability: Record<string, string>;
      api_keys: Record<string, string>;
    }
  >;
  teams: Record<string, string>;
};

/** A document problem, named by the path of the bad field. */
export class ImportError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(field ? `${field}: ${message}` : message);
    this.name = 'ImportError';
  }
}

export function parseImportDocument(input: unknown): ImportDocument {
  const parsed = ImportDocument.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new ImportError(issue ? formatPath(issue.path) : '', issue?.message ?? 'invalid document');
}

// Constraint names of the schema -> the message a person fixing the document needs.
const CONSTRAINT_MESSAGES: Record<string, string> = {
  accounts_username_key: 'this username is already taken',
  accounts_email_key: 'an account with this email already exists',
  booking_pages_slug_key: 'this slug is already used by another page of this host',
  availability_sets_account_name_key: 'this host already has an availability set with this name',
  teams_name_key: 'a team with this name already exists',
};

/** Runs one insert and turns a database error into an ImportError that names the field at `path`. */
async function at<T>(path: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    const dbError = error as { code?: string; constraint?: string; message?: string };
    if (dbError.code?.startsWith('23') || dbError.code === '22P02' || dbError.code === '22007') {
      const known = dbError.constraint ? CONSTRAINT_MESSAGES[dbError.constraint] : undefined;
      throw new ImportError(path, known ?? `rejected by the database (${dbError.constraint ?? dbError.code})`);
    }
    throw error;
  }
}

/**
 * Writes a whole import document inside the caller's transaction. Any error leaves the caller to roll back,
 * so a failed import writes nothing.
 */
export async function importDocument(tx: Sql, input: unknown): Promise<ImportResult> {
  const doc = parseImportDocument(input);
  checkReferences(doc);
  const result: ImportResult = { hosts: {}, teams: {} };
  const accountIds = new Map<string, string>();

  // Accounts and their availability first: teams and pages refer to them.
  for (const [h, host] of doc.hosts.entries()) {
    const path = `hosts[${h}]`;
    const account = await at(`${path}.username`, () => createAccount(tx, host));
    accountIds.set(host.username, account.id);
    const availability: Record<string, string> = {};
    const sets = host.availability.length > 0 ? host.availability : [DEFAULT_AVAILABILITY];
    for (const [a, set] of sets.entries()) {
      const created = await at(`${path}.availability[${a}].name`, () => createAvailabilitySet(tx, account.id, set));
      availability[set.name] = created.id;
    }
    result.hosts[host.username] = { id: account.id, pages: {}, availability, api_keys: {} };
  }

  for (const [t, team] of doc.teams.entries()) {
    const created = await at(`teams[${t}].name`, () => createTeam(tx, team.name, null));
    result.teams[team.name] = created.id;
    for (const [m, username] of team.members.entries()) {
      const accountId = accountIds.get(username) ?? (await findAccountId(tx, username));
      if (!accountId) throw new ImportError(`teams[${t}].members[${m}]`, `no host with username "${username}"`);
      await addTeamMember(tx, created.id, accountId, m === 0 ? 'owner' : 'member');
    }
  }

  for (const [h, host] of doc.hosts.entries()) {
    const path = `hosts[${h}]`;
    const out = result.hosts[host.username];
    if (!out) continue;
    const defaultSetId = Object.values(out.availability)[0] as string;
    for (const [p, page] of host.pages.entries()) {
      const { availability, allowed_team, questions, ...fields } = page;
      const allowedTeamId = allowed_team ? (result.teams[allowed_team] ?? (await findTeamId(tx, allowed_team))) : null;
      if (allowed_team && !allowedTeamId) {
        throw new ImportError(`${path}.pages[${p}].allowed_team`, `no team named "${allowed_team}"`);
      }
      const created = await at(`${path}.pages[${p}].slug`, () =>
        createBookingPage(tx, out.id, {
          ...fields,
          availability_set_id: availability ? (out.availability[availability] as string) : defaultSetId,
          allowed_team_id: allowedTeamId ?? null,
        }),
      );
      const questionIds = await at(`${path}.pages[${p}].questions`, () => addQuestions(tx, created.id, questions));
      out.pages[page.slug] = { id: created.id, questions: questionIds };
    }
    for (const [k, key] of host.api_keys.entries()) {
      const created = await at(`${path}.api_keys[${k}]`, () => createApiKey(tx, out.id, key));
      out.api_keys[key.name] = created.key;
    }
    for (const [e, event] of host.calendar_events.entries()) {
      await at(`${path}.calendar_events[${e}]`, () => addBusyEvent(tx, out.id, event));
    }
  }
  return result;
}

/** Cross-references inside the document, checked before anything is written. */
function checkReferences(doc: ImportDocument): void {
  const usernames = new Set<string>();
  for (const [h, host] of doc.hosts.entries()) {
    const path = `hosts[${h}]`;
    if (usernames.has(host.username)) throw new ImportError(`${path}.username`, 'duplicate username in the document');
    usernames.add(host.username);
    const setNames = new Set(host.availability.map((set) => set.name));
    if (setNames.size !== host.availability.length) {
      throw new ImportError(`${path}.availability`, 'availability set names must be unique per host');
    }
    const slugs = new Set<string>();
    for (const [p, page] of host.pages.entries()) {
      if (slugs.has(page.slug)) throw new ImportError(`${path}.pages[${p}].slug`, 'duplicate slug for this host');
      slugs.add(page.slug);
      if (page.availability && !setNames.has(page.availability)) {
        throw new ImportError(`${path}.pages[${p}].availability`, `no availability set named "${page.availability}"`);
      }
      const orders = page.questions.map((question, position) => question.order_index ?? position);
      if (new Set(orders).size !== orders.length) {
        throw new ImportError(`${path}.pages[${p}].questions`, 'order_index values must be unique');
      }
    }
    const keyNames = new Set(host.api_keys.map((key) => key.name));
    if (keyNames.size !== host.api_keys.length) {
      throw new ImportError(`${path}.api_keys`, 'API key names must be unique per host (the result is keyed by name)');
    }
  }
}

async function findAccountId(tx: Sql, username: string): Promise<string | undefined> {
  const { rows } = await tx.query<{ id: string }>('select id from accounts where username = $1', [username]);
  return rows[0]?.id;
}

async function findTeamId(tx: Sql, name: string): Promise<string | undefined> {
  const { rows } = await tx.query<{ id: string }>('select id from teams where lower(name) = lower($1)', [name]);
  return rows[0]?.id;
}
