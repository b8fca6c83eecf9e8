import { apiNotFound } from '@/lib/http/cors';

// Any other path under /api/v1: a JSON 404 with CORS, so clients never get an HTML page from the API.
export const GET = apiNotFound;
export const POST = apiNotFound;
export const PUT = apiNotFound;
export const PATCH = apiNotFound;
export const DELETE = apiNotFound;
export const OPTIONS = apiNotFound;
