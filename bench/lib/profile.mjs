/**
 * Reads the `.cpuprofile` files of `--profile` runs: self time per function, per request, and
 * where one server spends more than the other. Sampling profiles are approximate; the profiler
 * also slows the server it samples, so compare variants profiled in the same run only.
 */
import { readFileSync } from 'node:fs';

/** A readable frame name: function, package-relative file, line. */
function frameName(callFrame) {
  const url = callFrame.url
    .replace(/^.*node_modules\/\.pnpm\/[^/]+\/node_modules\//, '')
    .replace(/^.*node_modules\//, '')
    .replace(/^.*\/packages\//, '')
    .replace(/^file:\/\/.*\/bench\//, 'bench/');
  return `${callFrame.functionName || '(anonymous)'} ${url}:${callFrame.lineNumber + 1}`;
}

/** Self time in µs per request of every frame of a profile (idle time left out). */
export function selfTimePerRequest(file, requests) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const times = new Map();
  profile.samples.forEach((id, index) => {
    const name = frameName(nodes.get(id).callFrame);
    if (name.startsWith('(idle)')) return;
    times.set(name, (times.get(name) ?? 0) + (profile.timeDeltas[index] ?? 0) / requests);
  });
  return times;
}

/**
 * Compares two profiles: busy µs per request of each, and the `top` frames whose self time
 * differs most (positive: `a` pays more).
 */
export function compareProfiles(a, b, top = 15) {
  const timesA = selfTimePerRequest(a.file, a.requests);
  const timesB = selfTimePerRequest(b.file, b.requests);
  const total = (times) => [...times.values()].reduce((sum, value) => sum + value, 0);
  const names = new Set([...timesA.keys(), ...timesB.keys()]);
  const rows = [...names].map((frame) => {
    const inA = timesA.get(frame) ?? 0;
    const inB = timesB.get(frame) ?? 0;
    return { frame, a: round2(inA), b: round2(inB), difference: round2(inA - inB) };
  });
  rows.sort((x, y) => Math.abs(y.difference) - Math.abs(x.difference));
  return {
    busyMicrosPerRequest: { a: round2(total(timesA)), b: round2(total(timesB)) },
    frames: rows.slice(0, top),
  };
}

function round2(value) {
  return Math.round(value * 100) / 100;
}
