'use client';

import { useActionState } from 'react';
import { createKeyAction, type KeyState } from '../actions';

export function KeyForm() {
  const [state, action, pending] = useActionState<KeyState, FormData>(createKeyAction, null);
  return (
    <form action={action} className="card stack">
      <h2>New key</h2>
      <label>
        Name
        <input name="name" required maxLength={100} placeholder="e.g. website" />
      </label>
      <label>
        Type
        <select name="type" defaultValue="publishable">
          <option value="publishable">Publishable (browsers: pages, slots, create bookings)</option>
          <option value="secret">Secret (servers: also read, confirm and cancel bookings)</option>
        </select>
      </label>
      <button type="submit" disabled={pending}>
        Create key
      </button>
      {state?.error && (
        <p role="alert" className="error">
          {state.error}
        </p>
      )}
      {state?.created && (
        <p role="status">
          Key <strong>{state.created.name}</strong> (shown once, copy it now): <code>{state.created.key}</code>
        </p>
      )}
    </form>
  );
}
