// Replaced when the generator is built (tsup's `define`, from the workspace's manifests).
declare const __QUESTKIT_VERSIONS__: Record<string, string>;

/** The versions the generated package.json names, by package: the releases the generator shipped with. */
export function versions(): Readonly<Record<string, string>> {
  return __QUESTKIT_VERSIONS__;
}
