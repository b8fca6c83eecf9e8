import { SignInForm } from './form';

export const dynamic = 'force-dynamic';

export default function SignInPage() {
  return (
    <>
      <h1>Sign in</h1>
      <p className="muted">Hosts manage their bookings, API keys and emails in the dashboard.</p>
      <SignInForm />
    </>
  );
}
