// RFC 5322 / MIME rendering of an outbox message, for the file transport (.eml files any mail client opens).
import { randomBytes } from 'node:crypto';

export type OutgoingMessage = {
  id: string;
  from: string;
  to: string;
  toName: string | null;
  subject: string;
  text: string;
  html: string;
  ics: string | null;
  icsMethod: 'REQUEST' | 'CANCEL' | null;
  date: Date;
};

/** RFC 2047 encoded-word for non-ASCII header text; CR/LF removed first so no header can be injected. */
export function headerText(value: string): string {
  const clean = value.replace(/[\r\n]+/g, ' ').trim();
  return /^[\x20-\x7e]*$/.test(clean) ? clean : `=?UTF-8?B?${Buffer.from(clean, 'utf8').toString('base64')}?=`;
}

/** `"Name" <address>` with the name encoded; the address itself was validated before it was stored. */
export function mailbox(address: string, name: string | null): string {
  const cleanAddress = address.replace(/[\r\n<>]/g, '');
  if (!name) return cleanAddress;
  const encoded = headerText(name.replace(/["\\]/g, ''));
  return `${encoded.startsWith('=?') ? encoded : `"${encoded}"`} <${cleanAddress}>`;
}

function base64Body(value: string): string {
  return (
    Buffer.from(value, 'utf8')
      .toString('base64')
      .match(/.{1,76}/g)
      ?.join('\r\n') ?? ''
  );
}

export function icsMethodOf(ics: string | null): 'REQUEST' | 'CANCEL' | null {
  const method = ics ? /^METHOD:(REQUEST|CANCEL)\r?$/m.exec(ics)?.[1] : undefined;
  return (method as 'REQUEST' | 'CANCEL' | undefined) ?? null;
}

export function toEml(message: OutgoingMessage): string {
  const boundary = `=_${randomBytes(12).toString('hex')}`;
  const part = (type: string, body: string) =>
    [`--${boundary}`, `Content-Type: ${type}`, 'Content-Transfer-Encoding: base64', '', base64Body(body)].join('\r\n');
  const parts = [part('text/plain; charset=utf-8', message.text), part('text/html; charset=utf-8', message.html)];
  if (message.ics) {
    const method = message.icsMethod ? `; method=${message.icsMethod}` : '';
    parts.push(part(`text/calendar; charset=utf-8${method}`, message.ics));
  }
  return [
    `From: ${message.from.replace(/[\r\n]+/g, ' ')}`,
    `To: ${mailbox(message.to, message.toName)}`,
    `Subject: ${headerText(message.subject)}`,
    `Date: ${message.date.toUTCString()}`,
    `Message-ID: <${message.id}@booking-service>`,
    'MIME-Version: 1.0',
    `Content-Type: multipart/alternative; boundary="${boundary}"`,
    '',
    ...parts,
    `--${boundary}--`,
    '',
  ].join('\r\n');
}
