import Link from 'next/link';
import type { ReactNode } from 'react';
import { requireAccount } from './account';
import { signOutAction } from './actions';

export const dynamic = 'force-dynamic';

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const account = await requireAccount();
  return (
    <>
      <nav className="dashboard-nav">
        <strong>{account.username}</strong>
        <Link href="/dashboard">Bookings</Link>
        <Link href="/dashboard/keys">API keys</Link>
        <Link href="/dashboard/mailbox">Mailbox</Link>
        <Link href={`/${account.username}`}>Public profile</Link>
        <form action={signOutAction}>
          <button type="submit" className="link">
            Sign out
          </button>
        </form>
      </nav>
      {children}
    </>
  );
}
