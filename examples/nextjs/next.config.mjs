/** @type {import('next').NextConfig} */
export default {
  // The workspace's packages are ESM with their own builds: Next bundles them as they are.
  transpilePackages: [],
  // This example lives in a monorepo: trace files from the repository root.
  outputFileTracingRoot: new URL('../..', import.meta.url).pathname,
};
