/** @type {import('next').NextConfig} */
const nextConfig = {
  // PGlite loads its WebAssembly and data files from its own package directory at run time; bundling breaks that.
  serverExternalPackages: ['@electric-sql/pglite', 'pg'],
  poweredByHeader: false,
  // Lets parallel builds (a benchmark next to a test run) use separate output directories.
  distDir: process.env.NEXT_DIST_DIR || '.next',
};

export default nextConfig;
