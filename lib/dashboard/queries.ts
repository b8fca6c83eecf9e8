import type { SessionAccount } from '../auth/session';
import type { Sql } from '../db/client';

export type HostBooking = {
  id: string;
  page_title: string;
  guest_name: string;
  guest_email: string;
  start_time: Date;
  end_time: Date;
  status: string;
  ext_meet_link: string | null;
  sync_status: string;
  cancellation_reason: string | null;
};

/** The host's bookings for the dashboard: requests waiting for a decision first, then the latest by start. */
export async function listHostBookings(db: Sql, account: SessionAccount, limit = 100): Promise<HostBooking[]> {
  const { rows } = await db.query<HostBooking>(
    `select b.id, p.title as page_title, b.guest_name, b.guest_email, b.start_time, b.end_time, b.status,
       b.ext_meet_link, b.sync_status, b.cancellation_reason
     from bookings b join booking_pages p on p.id = b.booking_page_id
     where b.user_id = $1
     order by (b.status = 'pending') desc, b.start_time desc limit $2`,
    [account.id, limit],
  );
  return rows;
}

export type MailItem = {
  id: string;
  kind: string;
  to_address: string;
  subject: string;
  status: string;
  attempts: number;
  created_at: Date;
  sent_at: Date | null;
  last_error: string | null;
};

/** Development mailbox: emails about the host's bookings or addressed to the host. */
export async function listMailbox(db: Sql, account: SessionAccount, limit = 100): Promise<MailItem[]> {
  const { rows } = await db.query<MailItem>(
    `select o.id, o.kind, o.to_address, o.subject, o.status, o.attempts, o.created_at, o.sent_at, o.last_error
     from email_outbox o left join bookings b on b.id = o.booking_id
     where b.user_id = $1 or lower(o.to_address) = lower($2)
     order by o.created_at desc limit $3`,
    [account.id, account.email, limit],
  );
  return rows;
}

export async function getMail(
  db: Sql,
  account: SessionAccount,
  id: string,
): Promise<(MailItem & { text_body: string; ics: string | null }) | null> {
  const { rows } = await db.query<MailItem & { text_body: string; ics: string | null }>(
    `select o.id, o.kind, o.to_address, o.subject, o.status, o.attempts, o.created_at, o.sent_at, o.last_error,
       o.text_body, o.ics
     from email_outbox o left join bookings b on b.id = o.booking_id
     where o.id = $1 and (b.user_id = $2 or lower(o.to_address) = lower($3))`,
    [id, account.id, account.email],
  );
  return rows[0] ?? null;
}

export type KeyListItem = {
  id: string;
  name: string;
  type: string;
  prefix: string;
  scopes: string[];
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
  expires_at: Date | null;
};

export async function listApiKeys(db: Sql, account: SessionAccount): Promise<KeyListItem[]> {
  const { rows } = await db.query<KeyListItem>(
    `select id, name, type, prefix, scopes, created_at, last_used_at, revoked_at, expires_at
     from api_keys where account_id = $1 order by created_at desc`,
    [account.id],
  );
  return rows;
}
