'use server';

import { cookies } from 'next/headers';
import { redirect } from 'next/navigation';
import { createSession, SESSION_COOKIE, SESSION_DAYS } from '@/lib/auth/session';
import { signIn } from '@/lib/auth/sign-in';
import { getDb } from '@/lib/db/client';

export async function signInAction(_state: { error: string; email: string } | null, form: FormData) {
  const email = String(form.get('email') ?? '');
  const password = String(form.get('password') ?? '');
  const db = await getDb();
  const result = await signIn(db, email, password);
  // React resets the form after an action; the address comes back so the host only retypes the password.
  if (!result.ok) return { error: result.error, email };
  const token = await createSession(db, result.accountId);
  (await cookies()).set(SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'lax',
    secure: (process.env.APP_URL ?? '').startsWith('https://'),
    path: '/',
    maxAge: SESSION_DAYS * 86_400,
  });
  redirect('/dashboard');
}
