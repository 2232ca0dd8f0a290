// Prints `tests: N passed, M failed` from vitest's JSON reports, the last line CI reads. Several
// reports (the main run and each Node version of the matrix) add up, each with its own line first.
// Exits 1 when a report is missing, counts a failure, or ran no test at all.
import { readFileSync } from 'node:fs';

const files = process.argv.length > 2 ? process.argv.slice(2) : ['.vitest-report.json'];
let passed = 0;
let failed = 0;
let empty = false;
for (const file of files) {
  let report;
  try {
    report = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    console.log(`no test report at ${file}`);
    failed += 1;
    continue;
  }
  const filePassed = report.numPassedTests ?? 0;
  // Failed tests, and a file that failed with no failed test (on import, in a hook) as one more.
  // vitest's count of failed suites also counts the file and each describe around a failed test.
  let fileFailed = report.numFailedTests ?? 0;
  for (const suite of report.testResults ?? []) {
    const tests = suite.assertionResults ?? [];
    for (const test of tests) {
      if (test.status !== 'failed') continue;
      console.log(`FAIL ${suite.name} > ${test.fullName}`);
      // The assertion's first lines, so that a red run on a machine nobody can see says why.
      const why = (test.failureMessages ?? []).join('\n').split('\n').slice(0, 12);
      for (const line of why) console.log(`  ${line.slice(0, 300)}`);
    }
    if (suite.status === 'failed' && !tests.some((test) => test.status === 'failed')) {
      console.log(`FAIL ${suite.name}: ${suite.message ?? 'suite failed to run'}`);
      fileFailed += 1;
    }
  }
  if (files.length > 1) console.log(`${file}: ${filePassed} passed, ${fileFailed} failed`);
  if (filePassed === 0) empty = true;
  passed += filePassed;
  failed += fileFailed;
}
console.log(`tests: ${passed} passed, ${failed} failed`);
process.exit(failed > 0 || empty ? 1 : 0);
