/** @type {import('next').NextConfig} */
const nextConfig = {
  // PGlite loads its WebAssembly and data files from its own package directory at run time; bundling breaks that.
  serverExternalPackages: ['@electric-sql/pglite', 'pg'],
  poweredByHeader: false,
  experimental: {
    // proxy.ts runs on every request, so Next.js buffers each request body for it (default up to 10 MB) before the
    // route sees it. The API refuses bodies over 64 KiB and server actions over 1 MB, so 1 MB bounds that memory
    // per request without changing any answer (a body cut at 1 MB is still over the API's limit: 413).
    proxyClientMaxBodySize: '1mb',
  },
  // Lets parallel builds (a benchmark next to a test run) use separate output directories.
  distDir: process.env.NEXT_DIST_DIR || '.next',
};

export default nextConfig;
