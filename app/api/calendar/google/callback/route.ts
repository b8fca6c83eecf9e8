import { type ConnectOutcome, completeGoogleConnect, connectResultPage } from '@/lib/calendar/oauth';
import { getDb } from '@/lib/db/client';

export const dynamic = 'force-dynamic';

// GET /api/calendar/google/callback - Google's OAuth redirect after a host allowed calendar access
export async function GET(request: Request): Promise<Response> {
  const params = new URL(request.url).searchParams;
  let outcome: ConnectOutcome;
  try {
    outcome = await completeGoogleConnect(await getDb(), {
      code: params.get('code'),
      state: params.get('state'),
      error: params.get('error'),
    });
  } catch (error) {
    console.error(`[calendar] google callback: ${(error as Error).message}`);
    outcome = { ok: false, status: 500, message: 'Something went wrong on our side. Try the connection link again.' };
  }
  const page = connectResultPage(outcome);
  return new Response(page.html, {
    status: page.status,
    // The address carried a one-time code: keep it out of caches and Referer headers.
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
      'Referrer-Policy': 'no-referrer',
    },
  });
}
