import { type NextRequest, NextResponse } from 'next/server';

/**
 * Optional canonical host (spec: the base address is always the www host; the bare domain redirects). With
 * CANONICAL_HOST set ("www.example.com" or "https://www.example.com"), a request on any other host gets a 308 to
 * the same path there, method and body preserved. Health checks stay reachable on any host for load balancers.
 */
export function proxy(request: NextRequest) {
  const canonical = process.env.CANONICAL_HOST;
  if (!canonical || request.nextUrl.pathname === '/api/health') return NextResponse.next();
  const target = canonical.includes('://') ? new URL(canonical) : new URL(`${request.nextUrl.protocol}//${canonical}`);
  const host = request.headers.get('host');
  if (host === target.host) return NextResponse.next();
  const location = new URL(`${request.nextUrl.pathname}${request.nextUrl.search}`, target.origin);
  return NextResponse.redirect(location, 308);
}

export const config = {
  // Static assets are served on whatever host loaded the page.
  matcher: ['/((?!_next/static|_next/image|favicon.ico).*)'],
};
