/**
 * The known name closest to a mistyped one, for a "did you mean" hint; `undefined` when none is
 * close enough (at most a third of the name's letters apart, ignoring case and dashes).
 */
export function closest(typed: string, known: readonly string[]): string | undefined {
  const plain = (name: string) => name.toLowerCase().replace(/-/g, '');
  const target = plain(typed);
  let best: string | undefined;
  let bestDistance = Math.max(1, Math.floor(target.length / 3)) + 1;
  for (const name of known) {
    const distance = editDistance(target, plain(name));
    if (distance < bestDistance) {
      best = name;
      bestDistance = distance;
    }
  }
  return best;
}

/** Edit distance counting insertions, deletions, substitutions and swaps of two neighbours. */
function editDistance(a: string, b: string): number {
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
