// The page, script and stylesheets are files beside the build: both builds (ESM and CommonJS)
// must find them where the build copied them, and serve them as they are in the sources.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { ASSET_FILES } from './assets.js';
import { renderDashboardPage } from './dashboard/page.js';

const ROUTES = {
  'dashboard/app.js': '/__mock/dashboard/app.js',
  'dashboard/app.css': '/__mock/dashboard/app.css',
  'openapi/docs.css': '/docs/assets/docs.css',
} as const;

type Build = { createMockPlatform: () => { fetch(request: Request): Promise<Response> } };

const builds: Array<[string, () => Promise<Build>]> = [
  ['ESM', async () => (await import(new URL('../dist/index.js', import.meta.url).href)) as Build],
  ['CommonJS', async () => createRequire(import.meta.url)('../dist/index.cjs') as Build],
];

describe.each(builds)('the %s build', (_, load) => {
  it('serves every asset file as it is in the sources', async () => {
    const platform = (await load()).createMockPlatform();
    for (const [file, path] of Object.entries(ROUTES)) {
      const answer = await platform.fetch(new Request(`http://127.0.0.1${path}`));
      expect(answer.status, path).toBe(200);
      expect(await answer.text(), path).toBe(
        await readFile(new URL(`./${file}`, import.meta.url), 'utf8'),
      );
    }
    const page = await platform.fetch(new Request('http://127.0.0.1/__mock/dashboard'));
    expect(await page.text()).toContain('<script src="/__mock/dashboard/app.js" defer></script>');
  });
});

describe('the dashboard page', () => {
  it('lists every asset file the build copies', () => {
    expect([...ASSET_FILES].sort()).toEqual([...Object.keys(ROUTES), 'dashboard/page.html'].sort());
  });

  it('refuses a page.html that lost a marker rather than serve a page without its select', async () => {
    const template = await readFile(new URL('./dashboard/page.html', import.meta.url), 'utf8');
    const options = { subdomains: ['demo'], tokenRequired: false };
    expect(renderDashboardPage(template, options)).toContain(
      '<select id="community"><option value="demo">demo</option></select>',
    );
    expect(() =>
      renderDashboardPage(template.replace('<select id="community"></select>', ''), options),
    ).toThrow('dashboard page.html: <select id="community"></select> 0 times');
  });

  it('keeps the token form only when the control routes need the token', async () => {
    const template = await readFile(new URL('./dashboard/page.html', import.meta.url), 'utf8');
    const open = renderDashboardPage(template, { subdomains: [], tokenRequired: false });
    const guarded = renderDashboardPage(template, { subdomains: [], tokenRequired: true });
    expect(open).not.toContain('id="token-form"');
    expect(open).toContain('<body data-token-required="false">');
    expect(guarded).toContain('id="token-form"');
    expect(guarded).toContain('<body data-token-required="true">');
  });
});
