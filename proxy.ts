import { type NextRequest, NextResponse } from 'next/server';
import { apiNotFound } from '@/lib/http/cors';

/**
 * Runs before routing on every path but static assets.
 *
 * 1. An API path whose percent-encoding does not decode (`/api/v1/bookings/%E0%A4%A`) names no resource: it gets
 *    the API's JSON 404 here, where Next would otherwise fail decoding the route's parameters with a plain-text 500.
 * 2. Optional canonical host (spec: the base address is always the www host; the bare domain redirects). With
 *    CANONICAL_HOST set ("www.example.com" or "https://www.example.com"), a request on any other host gets a 308 to
 *    the same path there, method and body preserved. Health checks stay reachable on any host for load balancers.
 */
export function proxy(request: NextRequest) {
  const { pathname } = request.nextUrl;
  if (pathname.startsWith('/api/') && !decodes(pathname)) return apiNotFound();
  const canonical = process.env.CANONICAL_HOST;
  if (!canonical || pathname === '/api/health') return NextResponse.next();
  const target = canonical.includes('://') ? new URL(canonical) : new URL(`${request.nextUrl.protocol}//${canonical}`);
  const host = request.headers.get('host');
  if (host === target.host) return NextResponse.next();
  const location = new URL(`${pathname}${request.nextUrl.search}`, target.origin);
  return NextResponse.redirect(location, 308);
}

function decodes(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

export const config = {
  // Static assets are served on whatever host loaded the page.
  matcher: ['/((?!_next/static|_next/image|favicon.ico).*)'],
};
