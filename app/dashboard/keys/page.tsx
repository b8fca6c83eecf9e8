import { listApiKeys } from '@/lib/dashboard/queries';
import { getDb } from '@/lib/db/client';
import { formatInZone, requireAccount } from '../account';
import { revokeKeyAction } from '../actions';
import { KeyForm } from './key-form';

export const dynamic = 'force-dynamic';

export default async function KeysPage() {
  const account = await requireAccount();
  const keys = await listApiKeys(await getDb(), account);
  const now = new Date();
  return (
    <>
      <h1>API keys</h1>
      <p className="muted">
        Keys are stored as hashes: a key is shown once, when it is created. Five keys can be created an hour.
      </p>
      <KeyForm />
      <table className="data-table">
        <thead>
          <tr>
            <th>Name</th>
            <th>Key</th>
            <th>Scopes</th>
            <th>Last used</th>
            <th>State</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {keys.map((key) => {
            const state = key.revoked_at ? 'revoked' : key.expires_at && key.expires_at <= now ? 'expired' : 'active';
            return (
              <tr key={key.id}>
                <td>{key.name}</td>
                <td>
                  <code>{key.prefix}…</code>
                </td>
                <td>{key.scopes.join(', ')}</td>
                <td>{key.last_used_at ? formatInZone(key.last_used_at, account.timezone) : 'never'}</td>
                <td>{state}</td>
                <td>
                  {state === 'active' && (
                    <form action={revokeKeyAction}>
                      <input type="hidden" name="keyId" value={key.id} />
                      <button type="submit">Revoke</button>
                    </form>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </>
  );
}
