import Link from 'next/link';
import { listMailbox } from '@/lib/dashboard/queries';
import { getDb } from '@/lib/db/client';
import { mailDir } from '@/lib/email/transport';
import { formatInZone, requireAccount } from '../account';

export const dynamic = 'force-dynamic';

export default async function MailboxPage() {
  const account = await requireAccount();
  const mails = await listMailbox(await getDb(), account);
  const resend = Boolean(process.env.RESEND_API_KEY);
  return (
    <>
      <h1>Mailbox</h1>
      <p className="muted">
        {resend
          ? 'Emails about your bookings, as sent through Resend.'
          : `Development mailbox: no email provider is configured, so messages are written as .eml files to ${mailDir()}.`}
      </p>
      {mails.length === 0 && <p>No emails yet.</p>}
      <table className="data-table">
        <thead>
          <tr>
            <th>When</th>
            <th>To</th>
            <th>Subject</th>
            <th>State</th>
          </tr>
        </thead>
        <tbody>
          {mails.map((mail) => (
            <tr key={mail.id}>
              <td>{formatInZone(mail.created_at, account.timezone)}</td>
              <td>{mail.to_address}</td>
              <td>
                <Link href={`/dashboard/mailbox/${mail.id}`}>{mail.subject}</Link>
              </td>
              <td>
                {mail.status}
                {mail.status === 'pending' && mail.attempts > 0 ? ` (attempt ${mail.attempts})` : ''}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
