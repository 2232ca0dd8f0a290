// Prints `tests: N passed, M failed` from vitest's JSON report, the last line CI reads.
// Exits 1 when the report is missing, counts a failure, or ran no test at all.
import { readFileSync } from 'node:fs';

const file = process.argv[2] ?? '.vitest-report.json';
let report;
try {
  report = JSON.parse(readFileSync(file, 'utf8'));
} catch {
  console.log(`no test report at ${file}`);
  console.log('tests: 0 passed, 1 failed');
  process.exit(1);
}

const passed = report.numPassedTests ?? 0;
const failed = (report.numFailedTests ?? 0) + (report.numFailedTestSuites ?? 0);
for (const suite of report.testResults ?? []) {
  for (const test of suite.assertionResults ?? []) {
    if (test.status === 'failed') console.log(`FAIL ${suite.name} > ${test.fullName}`);
  }
  if (suite.status === 'failed' && (suite.assertionResults ?? []).length === 0) {
    console.log(`FAIL ${suite.name}: ${suite.message ?? 'suite failed to run'}`);
  }
}
console.log(`tests: ${passed} passed, ${failed} failed`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
