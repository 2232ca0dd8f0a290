/**
 * Which parts of questkit exist yet. A comparison whose package is missing, unbuilt or without the
 * export it needs is skipped with a "not available" line in the report: never a made-up number.
 */

/**
 * Imports `specifier` and checks that it exports every name in `names` as a function. Returns
 * `{ ok: true, module }` or `{ ok: false, reason }`.
 */
export async function requireExports(specifier, names) {
  let module;
  try {
    module = await import(specifier);
  } catch (error) {
    return {
      ok: false,
      reason: `${specifier} cannot be imported (${firstLine(error)}); build it first`,
    };
  }
  const missing = names.filter((name) => typeof module[name] !== 'function');
  if (missing.length > 0) {
    return {
      ok: false,
      reason: `${specifier} does not export ${missing.join(', ')} (not written or not built yet)`,
    };
  }
  return { ok: true, module };
}

function firstLine(error) {
  return String(error?.message ?? error).split('\n', 1)[0];
}
