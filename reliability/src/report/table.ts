import type { ResultRow } from './record.js';

/** The order areas appear in; areas not listed come last, alphabetically. */
const AREA_ORDER = [
  'Verification endpoints: fuzz',
  'Verification endpoints: HTTP framing',
  'Verification endpoints: faults',
  'Verification endpoints: secrets',
  'Connect: open redirects',
  'Mock platform: load',
  'Mock platform: claims under load',
  'Mock platform: webhook faults',
  'Mock platform: bad input',
];

const count = (value: number) => value.toLocaleString('en-US');
const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function rank(area: string): number {
  const index = AREA_ORDER.indexOf(area);
  return index === -1 ? AREA_ORDER.length : index;
}

/** The results as a markdown table, with totals. */
export function renderTable(rows: readonly ResultRow[]): string {
  const sorted = [...rows].sort(
    (a, b) =>
      rank(a.area) - rank(b.area) ||
      a.area.localeCompare(b.area) ||
      a.subject.localeCompare(b.subject),
  );
  const lines = [
    '| Area | Subject | Requests | Faults injected | What held | Violations |',
    '| --- | --- | ---: | ---: | --- | ---: |',
  ];
  for (const row of sorted) {
    lines.push(
      `| ${cell(row.area)} | ${cell(row.subject)} | ${count(row.requests)} | ${count(row.faults)} | ${cell(row.held)} | ${count(row.violations)} |`,
    );
  }
  const total = (key: 'requests' | 'faults' | 'violations') =>
    count(rows.reduce((sum, row) => sum + row[key], 0));
  lines.push(
    `| **Total** | ${rows.length} checks | ${total('requests')} | ${total('faults')} | | **${total('violations')}** |`,
  );
  return lines.join('\n');
}
