// GET /api/health - liveness: answers without touching the database (the benchmarks' framework baseline).
export const dynamic = 'force-dynamic';

export function GET() {
  return Response.json({ ok: true });
}
