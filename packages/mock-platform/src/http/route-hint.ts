import { closest } from '@questkit/conformance';

/** A route the mock serves: its method and path template (`/public/communities/{subdomain}/quests`). */
export interface KnownRoute {
  method: string;
  path: string;
}

/**
 * The route a 404 most likely meant, as " (did you mean GET /public/communities/demo/quests?)":
 * a template with as many segments whose literal segments all match but one, which is near the
 * typed one (`quest` -> `quests`); or the same path under another method. Empty when none is near.
 */
export function routeHint(method: string, path: string, routes: readonly KnownRoute[]): string {
  const typed = path.split('/');
  const sameLength = routes.filter((route) => route.path.split('/').length === typed.length);
  const fits = (route: KnownRoute) =>
    route.path.split('/').every((part, i) => isParam(part) || part === typed[i]);
  const otherMethod = sameLength.find(fits);
  if (otherMethod && otherMethod.method.toUpperCase() !== method.toUpperCase()) {
    const methods = sameLength.filter(fits).map((route) => route.method.toUpperCase());
    return ` (this path answers ${[...new Set(methods)].join(', ')})`;
  }
  for (const route of sameLength) {
    const parts = route.path.split('/');
    const differing = parts.flatMap((part, i) => (isParam(part) || part === typed[i] ? [] : [i]));
    if (differing.length !== 1) continue;
    const at = differing[0]!;
    if (closest(typed[at] ?? '', [parts[at]!]) === undefined) continue;
    const suggestion = parts.map((part, i) => (isParam(part) ? typed[i] : part)).join('/');
    return ` (did you mean ${route.method.toUpperCase()} ${suggestion}?)`;
  }
  return '';
}

function isParam(segment: string): boolean {
  return /^\{\w+\}$/.test(segment);
}
