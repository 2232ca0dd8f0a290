// The dashboard's and the docs page's files (HTML, CSS, browser JavaScript) are real files that
// biome and tsc check. They sit beside this module in the sources (src/dashboard/, src/openapi/)
// and beside the build (dist/dashboard/, dist/openapi/), where the build copies them, so one
// relative URL finds them from the sources, the ESM build and the CommonJS build alike.
import { readFile } from 'node:fs/promises';

/** The asset files, by their path relative to this module. */
export const ASSET_FILES = [
  'dashboard/page.html',
  'dashboard/app.js',
  'dashboard/app.css',
  'openapi/docs.css',
] as const;
/** One asset file. */
export type AssetFile = (typeof ASSET_FILES)[number];

const read = new Map<AssetFile, Promise<string>>();

/** An asset's text, read from disk once per process. */
export function readAsset(file: AssetFile): Promise<string> {
  let text = read.get(file);
  if (!text) {
    text = readFile(new URL(`./${file}`, import.meta.url), 'utf8');
    // A failed read is not kept: the next request tries again (and answers 500 meanwhile).
    text.catch(() => read.delete(file));
    read.set(file, text);
  }
  return text;
}
