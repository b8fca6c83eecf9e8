import { renderFeed } from '@/lib/calendar/feed';
import { getDb } from '@/lib/db/client';

export const dynamic = 'force-dynamic';

const PRIVATE = { 'Referrer-Policy': 'no-referrer', 'X-Robots-Tag': 'noindex' };

const text = (status: number, body: string) =>
  new Response(body, {
    status,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', ...PRIVATE },
  });

// GET /calendar/{token}.ics - the host's private iCalendar feed (local provider events)
export async function GET(_request: Request, context: { params: Promise<{ token: string }> }): Promise<Response> {
  try {
    const { token } = await context.params;
    const feed = await renderFeed(await getDb(), token);
    if (feed === null) return text(404, 'Not found\n');
    return new Response(feed, {
      headers: {
        'Content-Type': 'text/calendar; charset=utf-8',
        'Content-Disposition': 'inline; filename="bookings.ics"',
        'Cache-Control': 'private, max-age=300',
        ...PRIVATE,
      },
    });
  } catch (error) {
    console.error(`[calendar] feed: ${(error as Error).message}`);
    return text(500, 'An unexpected error occurred\n');
  }
}
