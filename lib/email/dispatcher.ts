import type { Db } from '../db/client';
import { icsMethodOf } from './mime';
import { configuredTransport, fromAddress, type Transport } from './transport';

type OutboxRow = {
  id: string;
  to_address: string;
  to_name: string | null;
  subject: string;
  text_body: string;
  html_body: string;
  ics: string | null;
  attempts: number;
  created_at: Date;
};

export const MAX_ATTEMPTS = 8;
// A claim outlives any single send; after it expires (the sender crashed) another dispatcher takes the row over.
const CLAIM_SECONDS = 120;

/** Retry delay after the n-th failed attempt: 10 s, 20 s, 40 s ... capped at one hour. */
export function backoffSeconds(attempt: number): number {
  return Math.min(3600, 10 * 2 ** Math.max(0, attempt - 1));
}

/**
 * Sends due outbox messages once. Rows are claimed with FOR UPDATE SKIP LOCKED and a lease, so several app
 * instances never send one row at the same time; a row is marked sent right after its transport accepted it.
 */
export async function dispatchDue(
  db: Db,
  transport: Transport = configuredTransport(),
  limit = 20,
): Promise<{ sent: number; failed: number }> {
  const { rows } = await db.query<OutboxRow>(
    `update email_outbox set locked_until = now() + make_interval(secs => $2), attempts = attempts + 1
     where id in (
       select id from email_outbox
       where status = 'pending' and next_attempt_at <= now() and (locked_until is null or locked_until < now())
       order by next_attempt_at, created_at limit $1
       for update skip locked)
     returning id, to_address, to_name, subject, text_body, html_body, ics, attempts, created_at`,
    [limit, CLAIM_SECONDS],
  );
  let sent = 0;
  let failed = 0;
  for (const row of rows) {
    try {
      const providerId = await transport.send({
        id: row.id,
        from: fromAddress(),
        to: row.to_address,
        toName: row.to_name,
        subject: row.subject,
        text: row.text_body,
        html: row.html_body,
        ics: row.ics,
        icsMethod: icsMethodOf(row.ics),
        date: new Date(row.created_at),
      });
      await db.query(
        `update email_outbox set status = 'sent', sent_at = now(), provider_message_id = $2, locked_until = null,
           last_error = null where id = $1`,
        [row.id, providerId],
      );
      sent++;
    } catch (error) {
      failed++;
      const message = (error instanceof Error ? error.message : String(error)).slice(0, 1000);
      await db.query(
        `update email_outbox set locked_until = null, last_error = $2,
           status = case when attempts >= $3 then 'failed' else 'pending' end,
           next_attempt_at = now() + make_interval(secs => $4)
         where id = $1`,
        [row.id, message, MAX_ATTEMPTS, backoffSeconds(row.attempts)],
      );
    }
  }
  return { sent, failed };
}

const globalKey = Symbol.for('booking-service.dispatcher');
type GlobalWithTimer = typeof globalThis & { [globalKey]?: NodeJS.Timeout };

/** Polls the outbox in the server process (EMAIL_DISPATCH_INTERVAL_MS, default 2 s; 0 turns it off). */
export function startDispatcher(db: Db): void {
  const g = globalThis as GlobalWithTimer;
  const interval = Number(process.env.EMAIL_DISPATCH_INTERVAL_MS ?? 2000);
  if (g[globalKey] || interval <= 0) return;
  const transport = configuredTransport();
  let running = false;
  g[globalKey] = setInterval(async () => {
    if (running) return;
    running = true;
    try {
      // Drain in batches while there is work, then wait for the next tick.
      for (;;) {
        const { sent, failed } = await dispatchDue(db, transport);
        if (sent + failed === 0) break;
      }
    } catch (error) {
      console.error('[email] dispatcher:', (error as Error).message);
    } finally {
      running = false;
    }
  }, interval);
  g[globalKey].unref();
  console.log(`[email] dispatcher started (${transport.name})`);
}
