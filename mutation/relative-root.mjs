// Stryker writes the machine's absolute checkout path as each incremental file's projectRoot; the
// committed files say "." so that no machine path enters the repository (the mutants' paths are
// relative already).
import { readFileSync, writeFileSync } from 'node:fs';

for (const name of ['stryker-incremental.json', 'stryker-incremental-conformance.json']) {
  const file = new URL(name, import.meta.url);
  const text = readFileSync(file, 'utf8');
  writeFileSync(file, text.replace(/"projectRoot": "[^"]*"/, '"projectRoot": "."'));
}
