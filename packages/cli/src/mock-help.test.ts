import { CONTROL_ROUTES } from '@questkit/mock-platform';
import { describe, expect, it } from 'vitest';
import { mockCommand } from './commands/mock.js';

// `questkit mock --help` lists a handful of control routes by hand, as a user would type them
// (`demo`, `<questId>`); each must be one the mock serves, with the same method.
const listed = [
  ...(mockCommand.epilog ?? '').matchAll(/^\s+(GET|POST|PUT|DELETE)\s+(\/__mock\/\S+)/gm),
];

/** Whether a path as typed (`/__mock/communities/demo/...`) is an instance of a route's template. */
function instanceOf(typed: string, template: string): boolean {
  const pattern = template.replace(/\{[^}]+\}/g, '[^/]+');
  return new RegExp(`^${pattern}$`).test(typed.split('?')[0]!);
}

describe('questkit mock --help', () => {
  it('lists control routes the mock serves, and at least the claim and the clock', () => {
    expect(listed.map(([, method, path]) => `${method} ${path}`)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^POST \/__mock\/communities\/demo\/quests\/.+\/claims$/),
        'POST /__mock/clock/advance',
      ]),
    );
    for (const [, method, path] of listed) {
      const served = CONTROL_ROUTES.some(
        (route) => route.method === method && instanceOf(path!, route.path),
      );
      expect(served, `${method} ${path}`).toBe(true);
    }
  });
});
