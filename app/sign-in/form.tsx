'use client';

import { useActionState } from 'react';
import { signInAction } from './actions';

export function SignInForm() {
  const [state, action, pending] = useActionState(signInAction, null);
  return (
    <form action={action} className="card stack">
      <label>
        Email
        <input name="email" type="email" autoComplete="email" required defaultValue={state?.email} />
      </label>
      <label>
        Password
        <input name="password" type="password" autoComplete="current-password" required />
      </label>
      {state?.error && (
        <p role="alert" className="error">
          {state.error}
        </p>
      )}
      <button type="submit" disabled={pending}>
        Sign in
      </button>
    </form>
  );
}
