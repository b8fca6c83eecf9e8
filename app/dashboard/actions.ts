'use server';

import { cookies } from 'next/headers';
import { redirect } from 'next/navigation';
import { createApiKeyLimited, KeyLimitError, revokeApiKey } from '@/lib/api-keys/mutations';
import { ApiKeyInput } from '@/lib/api-keys/schema';
import { endSession, SESSION_COOKIE } from '@/lib/auth/session';
import { type HostAction, hostActOnBooking } from '@/lib/bookings/host-actions';
import { getDb } from '@/lib/db/client';
import { ApiError } from '@/lib/http/errors';
import { requireAccount } from './account';

export async function bookingAction(_state: { error: string } | null, form: FormData) {
  const account = await requireAccount();
  const action = String(form.get('action')) as HostAction;
  if (!['approve', 'decline', 'cancel'].includes(action)) return { error: 'Unknown action' };
  const reason =
    String(form.get('reason') ?? '')
      .trim()
      .slice(0, 2000) || null;
  try {
    await hostActOnBooking(await getDb(), account.id, String(form.get('bookingId')), action, reason);
  } catch (error) {
    if (error instanceof ApiError) return { error: error.message };
    throw error;
  }
  redirect('/dashboard');
}

export type KeyState = { error?: string; created?: { name: string; key: string } } | null;

export async function createKeyAction(_state: KeyState, form: FormData): Promise<KeyState> {
  const account = await requireAccount();
  const parsed = ApiKeyInput.safeParse({ name: String(form.get('name') ?? ''), type: String(form.get('type') ?? '') });
  if (!parsed.success) return { error: 'Give the key a name (1-100 characters) and a type.' };
  try {
    const created = await createApiKeyLimited(await getDb(), account.id, parsed.data);
    return { created: { name: parsed.data.name, key: created.key } };
  } catch (error) {
    if (error instanceof KeyLimitError) return { error: error.message };
    throw error;
  }
}

export async function revokeKeyAction(form: FormData) {
  const account = await requireAccount();
  await revokeApiKey(await getDb(), account.id, String(form.get('keyId')));
  redirect('/dashboard/keys');
}

export async function signOutAction() {
  const store = await cookies();
  await endSession(await getDb(), store.get(SESSION_COOKIE)?.value);
  store.delete(SESSION_COOKIE);
  redirect('/sign-in');
}
