// Next.js calls register() once when the server starts. The nodejs branch is compiled only for the Node.js
// runtime (the edge bundle would choke on pg and PGlite), so the import stays inside the literal comparison.
export async function register() {
  if (process.env.NEXT_RUNTIME === 'nodejs') {
    const { openAtStartup } = await import('./lib/server/startup');
    await openAtStartup();
  }
}
