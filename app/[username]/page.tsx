import Link from 'next/link';
import { notFound } from 'next/navigation';
import { getProfileByUsername } from '@/lib/accounts/queries';
import { listProfilePages } from '@/lib/booking-pages/queries';
import { getDb } from '@/lib/db/client';
import { Markdown } from './[slug]/markdown';

// Reads the database on every request; never prerendered at build time.
export const dynamic = 'force-dynamic';

export default async function ProfilePage({ params }: { params: Promise<{ username: string }> }) {
  const { username } = await params;
  const db = await getDb();
  const profile = await getProfileByUsername(db, username);
  if (!profile) notFound();
  const pages = await listProfilePages(db, profile.id);
  return (
    <>
      <h1>{profile.full_name ?? profile.username}</h1>
      {profile.bio && <p className="muted">{profile.bio}</p>}
      {pages.length === 0 && <p>No booking pages yet.</p>}
      {pages.map((page) => (
        <div className="card" key={page.id}>
          <h2>
            <Link href={`/${profile.username}/${page.slug}`}>{page.title}</Link>
          </h2>
          <p className="muted">{page.duration_minutes} minutes</p>
          {page.description && <Markdown source={page.description} className="description" />}
        </div>
      ))}
    </>
  );
}
