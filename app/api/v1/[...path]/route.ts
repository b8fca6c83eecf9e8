import { json } from '@/lib/http/api';
import { CORS_HEADERS } from '@/lib/http/cors';

// Any other path under /api/v1: a JSON 404 with CORS, so clients never get an HTML page from the API.
const notFound = () => json({ error: 'Not found' }, 404, { ...CORS_HEADERS });

export const GET = notFound;
export const POST = notFound;
export const PUT = notFound;
export const PATCH = notFound;
export const DELETE = notFound;
export const OPTIONS = notFound;
