import type { Sql } from '../db/client';
import type { Email } from './messages';

/** Queues emails in the caller's transaction: they exist exactly when the change that caused them commits. */
export async function enqueueEmails(tx: Sql, bookingId: string | null, emails: Email[]): Promise<void> {
  for (const email of emails) {
    await tx.query(
      `insert into email_outbox (booking_id, kind, to_address, to_name, subject, text_body, html_body, ics)
       values ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [bookingId, email.kind, email.to, email.toName, email.subject, email.text, email.html, email.ics],
    );
  }
}
