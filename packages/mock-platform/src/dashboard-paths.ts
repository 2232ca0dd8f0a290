// The dashboard's paths, below both the dashboard that serves them and the guard that lets them
// through, so neither imports the other.

/** The paths of the dashboard's page and assets: the guard lets them through without the token. */
export const DASHBOARD_PATHS: ReadonlySet<string> = new Set([
  '/__mock/dashboard',
  '/__mock/dashboard/app.js',
  '/__mock/dashboard/app.css',
]);
