import { cookies } from 'next/headers';
import { redirect } from 'next/navigation';
import { SESSION_COOKIE, type SessionAccount, sessionAccount } from '@/lib/auth/session';
import { getDb } from '@/lib/db/client';

/** The signed-in host, or a redirect to the sign-in page. Every dashboard read and action starts here. */
export async function requireAccount(): Promise<SessionAccount> {
  const token = (await cookies()).get(SESSION_COOKIE)?.value;
  const account = await sessionAccount(await getDb(), token);
  if (!account) redirect('/sign-in');
  return account;
}

export function formatInZone(date: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', { timeZone, dateStyle: 'medium', timeStyle: 'short' }).format(date);
}
