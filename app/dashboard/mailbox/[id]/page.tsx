import Link from 'next/link';
import { notFound } from 'next/navigation';
import { getMail } from '@/lib/dashboard/queries';
import { getDb } from '@/lib/db/client';
import { UUID_PATTERN } from '@/lib/http/errors';
import { formatInZone, requireAccount } from '../../account';

export const dynamic = 'force-dynamic';

export default async function MailPage({ params }: { params: Promise<{ id: string }> }) {
  const account = await requireAccount();
  const { id } = await params;
  const mail = UUID_PATTERN.test(id) ? await getMail(await getDb(), account, id) : null;
  if (!mail) notFound();
  return (
    <>
      <p>
        <Link href="/dashboard/mailbox">← Mailbox</Link>
      </p>
      <h1>{mail.subject}</h1>
      <p className="muted">
        To {mail.to_address} · {formatInZone(mail.created_at, account.timezone)} · {mail.status}
        {mail.last_error ? ` · last error: ${mail.last_error}` : ''}
      </p>
      {/* The plain-text part: guest-typed text stays text. */}
      <pre className="card mail-body">{mail.text_body}</pre>
      {mail.ics && (
        <details>
          <summary>Calendar invite (invite.ics)</summary>
          <pre className="card mail-body">{mail.ics}</pre>
        </details>
      )}
    </>
  );
}
