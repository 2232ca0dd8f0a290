// Next.js runs register() once when the server starts.
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { warnIfMemoryDedupe } = await import('./lib/webhooks');
  // next start runs with NODE_ENV=production, next dev with development.
  warnIfMemoryDedupe(process.env.NODE_ENV);
}
