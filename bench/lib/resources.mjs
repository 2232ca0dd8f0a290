/** Resource figures a benchmark process reports about itself. */

/** Milliseconds on a monotonic clock. */
export function monotonicNow() {
  return performance.now();
}

/** Peak and current RSS (bytes) and CPU time used so far (ms). */
export function resourceStats() {
  const usage = process.resourceUsage();
  return {
    // maxRSS is in kilobytes: the peak resident set of this process so far.
    peakRssBytes: usage.maxRSS * 1024,
    rssBytes: process.memoryUsage.rss(),
    cpuMs: (usage.userCPUTime + usage.systemCPUTime) / 1000,
  };
}
