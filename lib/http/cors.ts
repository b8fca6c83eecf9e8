// Every endpoint answers CORS so a publishable key works from any origin (spec: What the service does).
export const CORS_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Headers': 'Authorization, x-service-key, Content-Type',
  'Access-Control-Expose-Headers':
    'Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, X-Request-Id',
  'Access-Control-Max-Age': '86400',
} as const;

export function corsHeaders(methods: readonly string[]): Record<string, string> {
  return { ...CORS_HEADERS, 'Access-Control-Allow-Methods': [...methods, 'OPTIONS'].join(', ') };
}

/** `export const OPTIONS = preflight(['GET'])`: answers without a key, as browsers send no credentials on preflight. */
export function preflight(methods: readonly string[]) {
  return () => new Response(null, { status: 204, headers: corsHeaders(methods) });
}

/** The JSON 404 of every path under /api/v1 that names no endpoint, so clients never get an HTML page. */
export function apiNotFound(): Response {
  return Response.json({ error: 'Not found' }, { status: 404, headers: { ...CORS_HEADERS } });
}
