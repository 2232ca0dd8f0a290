import { closest, IDENTIFICATION_METHODS, type IdentificationMethod } from '@questkit/core';

// The identification methods, and the "did you mean", are core's: the same names everywhere.
export { closest, IDENTIFICATION_METHODS, type IdentificationMethod };

/** The frameworks a project can be written for. */
export const FRAMEWORKS = ['express', 'fastify', 'hono', 'nextjs', 'workers'] as const;

/** One of {@link FRAMEWORKS}. */
export type Framework = (typeof FRAMEWORKS)[number];

/** What each framework is called in the prompt and the README. */
export const FRAMEWORK_TITLES: Record<Framework, string> = {
  express: 'Express',
  fastify: 'Fastify',
  hono: 'Hono (Node)',
  nextjs: 'Next.js (App Router)',
  workers: 'Cloudflare Workers (Hono)',
};

/** What a project is generated from: the answers to the prompts, or the flags. */
export interface ProjectOptions {
  /** The package name of the project (`name` in its package.json). */
  name: string;
  framework: Framework;
  /** The accounts every claim must carry (`requires`), in the contract's order; may be empty. */
  requires: IdentificationMethod[];
  /** Adds the identity-connect flow (`/connect`) and a signed session cookie. */
  connect: boolean;
  /** Adds the webhook receiver (`/webhooks`). */
  webhooks: boolean;
  /**
   * Where each @questkit package comes from, by name, instead of the released range: `file:` specs
   * of packed tarballs (`--packages`). Every @questkit package the project uses must be there.
   */
  packages?: Readonly<Record<string, string>>;
}

/** A mistake in how the generator was called: printed with the usage line, exit status 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

const ALIASES: Record<string, Framework> = {
  next: 'nextjs',
  'next.js': 'nextjs',
  worker: 'workers',
  cloudflare: 'workers',
  'cloudflare-workers': 'workers',
};

const didYouMean = (guess: string | undefined) =>
  guess === undefined ? '' : ` (did you mean "${guess}"?)`;

/** The framework a `--framework` value names (aliases such as `next` too), or a UsageError. */
export function parseFramework(value: string): Framework {
  const typed = value.trim().toLowerCase();
  if ((FRAMEWORKS as readonly string[]).includes(typed)) return typed as Framework;
  const alias = ALIASES[typed];
  if (alias) return alias;
  const guess = closest(typed, [...FRAMEWORKS, ...Object.keys(ALIASES)]);
  throw new UsageError(
    `unknown framework "${value}"${didYouMean(guess && (ALIASES[guess] ?? guess))}; use one of ${FRAMEWORKS.join(', ')}`,
  );
}

/** The methods a `--requires` list names (`email,discord`, or `none`), in the contract's order. */
export function parseRequires(value: string): IdentificationMethod[] {
  const typed = value
    .split(',')
    .map((part) => part.trim().toLowerCase())
    .filter((part) => part !== '');
  if (typed.length === 1 && typed[0] === 'none') return [];
  if (typed.length === 0) {
    throw new UsageError('--requires needs a list such as email,discord (or none)');
  }
  for (const method of typed) {
    if (!(IDENTIFICATION_METHODS as readonly string[]).includes(method)) {
      throw new UsageError(
        `--requires: unknown identification method "${method}"${didYouMean(closest(method, IDENTIFICATION_METHODS))}; use ${IDENTIFICATION_METHODS.join(', ')} or none`,
      );
    }
  }
  return IDENTIFICATION_METHODS.filter((method) => typed.includes(method));
}

const NAME = /^[a-z0-9~-][a-z0-9._~-]*$/;

/**
 * Why a package name is not one npm accepts (lower case, URL-safe, at most 214 characters), with
 * the name it probably meant; undefined when it is fine.
 */
export function nameProblem(name: string): string | undefined {
  const bare = name.startsWith('@') ? name.slice(name.indexOf('/') + 1) : name;
  const scopeOk = !name.startsWith('@') || /^@[a-z0-9~-][a-z0-9._~-]*\/[^/]+$/.test(name);
  if (name.length <= 214 && scopeOk && NAME.test(bare)) return undefined;
  const suggestion = bare
    .toLowerCase()
    .replace(/[^a-z0-9._~-]+/g, '-')
    .replace(/^[._]+/, '')
    .replace(/^-+|-+$/g, '')
    .slice(0, 214);
  const hint = suggestion && suggestion !== name ? ` (did you mean "${suggestion}"?)` : '';
  return `"${name}" is not a valid package name: use lower-case letters, digits, and - . _ ~ (not first: . _)${hint}`;
}
