import { NextResponse } from 'next/server';
import { getDb } from '@/lib/db/client';
import { ACCESS_COOKIE, accessToken, allowAccessAttempt, isAccessCode } from '@/lib/hosted/access';
import { hostedPath, loadHostedPage } from '@/lib/hosted/page';

// Checks the access code of a private page and reads the database on every request.
export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ username: string; slug: string }> };

// GET /{username}/{slug}/access?code=... - the link a host shares (the page itself redirects `?code=` here)
export async function GET(request: Request, context: Context) {
  return unlock(request, context, new URL(request.url).searchParams.get('code'));
}

// POST /{username}/{slug}/access - the access-code form
export async function POST(request: Request, context: Context) {
  const form = await request.formData().catch(() => null);
  const code = form?.get('code');
  return unlock(request, context, typeof code === 'string' ? code : null);
}

/** A correct code sets the page's access cookie; either way the guest lands back on the page, without the code. */
async function unlock(request: Request, context: Context, code: string | null): Promise<Response> {
  const { username, slug } = await context.params;
  const db = await getDb();
  const page = await loadHostedPage(db, username, slug);
  if (!page) return new Response('Not found', { status: 404 });
  const path = hostedPath(page);
  if (page.visibility !== 'private') return seeOther(path);
  if (!(await allowAccessAttempt(db, page.id, clientAddress(request)))) return seeOther(`${path}?access=limited`);
  if (code === null || !(await isAccessCode(page, code))) return seeOther(`${path}?access=wrong`);
  const response = seeOther(path);
  response.cookies.set(ACCESS_COOKIE, accessToken(page), {
    httpOnly: true,
    sameSite: 'lax',
    path,
    secure: isHttps(request),
  });
  return response;
}

// A relative Location: behind a proxy, request.url carries the internal host, not the one the guest used.
function seeOther(location: string): NextResponse {
  return new NextResponse(null, { status: 303, headers: { Location: location } });
}

function clientAddress(request: Request): string {
  return request.headers.get('x-forwarded-for')?.split(',')[0]?.trim() || 'unknown';
}

function isHttps(request: Request): boolean {
  const forwarded = request.headers.get('x-forwarded-proto')?.split(',')[0]?.trim();
  return (forwarded ?? new URL(request.url).protocol.replace(':', '')) === 'https';
}
