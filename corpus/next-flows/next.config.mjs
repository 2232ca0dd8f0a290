/** @type {import('next').NextConfig} */
export default {
  // The corpus lives in a monorepo: trace files from the repository root.
  outputFileTracingRoot: new URL('../..', import.meta.url).pathname,
};
