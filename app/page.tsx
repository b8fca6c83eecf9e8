import Link from 'next/link';

export default function HomePage() {
  return (
    <>
      <h1>Booking Service</h1>
      <p className="muted">Booking pages for hosts, open slots for guests, and a REST API for integrations.</p>
      <div className="card">
        <h2>Try the demo</h2>
        <p>
          The demo host&apos;s public profile is at <Link href="/demo">/demo</Link>. The API lives under{' '}
          <code>/api/v1</code>; <code>npm run dev</code> prints a demo secret and publishable key.
        </p>
      </div>
    </>
  );
}
