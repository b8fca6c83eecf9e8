import fs from 'node:fs/promises';
import path from 'node:path';
import { Resend } from 'resend';
import { dataDir } from '../config/env';
import { type OutgoingMessage, toEml } from './mime';

/** Delivers one outbox message; returns the provider's message id. Throws on failure (the dispatcher retries). */
export type Transport = { readonly name: 'file' | 'resend'; send(message: OutgoingMessage): Promise<string> };

export function mailDir(): string {
  return path.resolve(process.env.MAIL_DIR || path.join(dataDir(), 'mail'));
}

export function fromAddress(): string {
  return process.env.EMAIL_FROM || 'Booking Service <bookings@localhost>';
}

/**
 * Embedded default: each message becomes `<MAIL_DIR>/<outbox id>.eml`. Written to a temporary name and renamed,
 * so a reader never sees half a file, and a repeated delivery of the same row replaces the same file.
 */
export function fileTransport(dir = mailDir()): Transport {
  return {
    name: 'file',
    async send(message) {
      await fs.mkdir(dir, { recursive: true });
      const file = path.join(dir, `${message.id}.eml`);
      const temporary = `${file}.${process.pid}.tmp`;
      await fs.writeFile(temporary, toEml(message), 'utf8');
      await fs.rename(temporary, file);
      return file;
    },
  };
}

/** Production: Resend. The outbox row id is the idempotency key, so a retried row is delivered once. */
export function resendTransport(apiKey: string): Transport {
  const resend = new Resend(apiKey);
  return {
    name: 'resend',
    async send(message) {
      const { data, error } = await resend.emails.send(
        {
          from: message.from,
          to: message.toName ? [`${message.toName.replace(/["<>\r\n]/g, '')} <${message.to}>`] : [message.to],
          subject: message.subject,
          text: message.text,
          html: message.html,
          attachments: message.ics
            ? [
                {
                  filename: 'invite.ics',
                  content: Buffer.from(message.ics, 'utf8').toString('base64'),
                  contentType: `text/calendar; charset=utf-8${message.icsMethod ? `; method=${message.icsMethod}` : ''}`,
                },
              ]
            : undefined,
        },
        { idempotencyKey: `outbox-${message.id}` },
      );
      if (error || !data) throw new Error(`Resend: ${error?.name ?? 'error'}: ${error?.message ?? 'no data'}`);
      return data.id;
    },
  };
}

export function configuredTransport(): Transport {
  const key = process.env.RESEND_API_KEY;
  return key ? resendTransport(key) : fileTransport();
}
