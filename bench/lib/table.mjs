/** Markdown tables with padded columns: readable on a terminal and rendered on GitHub alike. */

/** Renders `rows` (arrays of cells) under `header`; numbers align right. */
export function table(header, rows) {
  const cells = [header, ...rows].map((row) => row.map((cell) => String(cell ?? '')));
  const widths = header.map((_, column) =>
    Math.max(3, ...cells.map((row) => row[column]?.length ?? 0)),
  );
  const numeric = header.map(
    (_, column) =>
      rows.length > 0 &&
      rows.every((row) => /^[\d.,\s×%x-]*$|^n\/a$/.test(String(row[column] ?? ''))),
  );
  const line = (row) =>
    `| ${row
      .map((cell, column) =>
        numeric[column] ? cell.padStart(widths[column]) : cell.padEnd(widths[column]),
      )
      .join(' | ')} |`;
  const rule = `| ${widths
    .map((width, column) => (numeric[column] ? `${'-'.repeat(width - 1)}:` : '-'.repeat(width)))
    .join(' | ')} |`;
  return [line(cells[0]), rule, ...cells.slice(1).map(line)].join('\n');
}

/** A number with thousands separators and `digits` decimals; "n/a" when missing. */
export function num(value, digits = 0) {
  if (value === null || value === undefined || !Number.isFinite(value)) return 'n/a';
  return value.toLocaleString('en-US', {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
}

/** A ratio with two decimals. */
export function ratioText(value) {
  return num(value, 2);
}
