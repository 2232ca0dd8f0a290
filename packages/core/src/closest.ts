/**
 * The known name closest to a mistyped one, for a "did you mean" hint: a CLI flag or command, a
 * field of a request body, a segment of a route. `undefined` when none is close enough: at most a
 * third of the name's letters apart (at least one), ignoring case and dashes.
 *
 * @example
 * closest('timout-ms', ['timeout-ms', 'json']); // 'timeout-ms'
 * closest('port', ['timeout-ms', 'json']); // undefined
 */
export function closest(typed: string, known: readonly string[]): string | undefined {
  const target = plain(typed);
  let best: string | undefined;
  let bestDistance = Math.max(1, Math.floor(target.length / 3)) + 1;
  for (const name of known) {
    const distance = editDistance(target, plain(name), bestDistance);
    if (distance < bestDistance) {
      best = name;
      bestDistance = distance;
    }
  }
  return best;
}

function plain(name: string): string {
  return name.toLowerCase().replace(/-/g, '');
}

// Names are short: past this length a typed name (a key of a hostile body) is near none.
const LONGEST_NAME = 64;

/**
 * Edit distance counting insertions, deletions, substitutions and swaps of two neighbours;
 * `limit` once it cannot be below `limit`.
 */
function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) >= limit || a.length > LONGEST_NAME) return limit;
  const rows: number[][] = [Array.from({ length: b.length + 1 }, (_, j) => j)];
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min(rows[i - 1]![j]! + 1, row[j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        row[j] = Math.min(row[j]!, rows[i - 2]![j - 2]! + 1);
      }
    }
    rows.push(row);
  }
  return rows[a.length]![b.length]!;
}
