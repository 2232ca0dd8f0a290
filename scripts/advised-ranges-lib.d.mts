export interface PublishedRange {
  pkg: string;
  kind: string;
  dep: string;
  range: string;
}
export interface Advisory {
  id: string;
  module: string;
  vulnerable: string;
  patched: string;
  title: string;
  url: string;
}
export function publishedRanges(manifests: readonly Record<string, unknown>[]): PublishedRange[];
export function projectRanges(
  projects: readonly { label: string; manifest: Record<string, unknown> }[],
): PublishedRange[];
export function floorVersions(range: string): string[];
export function advisoriesOf(audit: unknown): Advisory[];
export function admittedAdvisories(
  ranges: readonly PublishedRange[],
  advisories: readonly Advisory[],
): string[];
export function verdict(input: {
  problems: readonly string[];
  auditError?: string;
  required: boolean;
  checked: number;
}): { code: number; lines: string[] };
