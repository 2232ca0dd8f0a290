import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
// The swagger-ui-dist package's own way to find its files (CommonJS, works from either build).
import swaggerUiPath from 'swagger-ui-dist/absolute-path.js';

/** The docs page's assets, served by the mock from the swagger-ui-dist package: no network. */
export const DOCS_ASSETS: Readonly<Record<string, string>> = {
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui.css': 'text/css; charset=utf-8',
};

const escapeAttribute = (value: string) =>
  value.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;');

/**
 * The HTML of the /docs page: Swagger UI rendering the document at `specUrl`, its script and
 * stylesheet served by the mock itself (`/docs/assets/...`), so the page works offline.
 */
export function renderDocsPage(specUrl: string): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>questkit mock platform: public API</title>
    <link rel="stylesheet" href="/docs/assets/swagger-ui.css" />
  </head>
  <body>
    <div id="api-reference" data-url="${escapeAttribute(specUrl)}"></div>
    <script src="/docs/assets/swagger-ui-bundle.js"></script>
    <script src="/docs/assets/init.js"></script>
  </body>
</html>
`;
}

/** Starts Swagger UI on the page's element; a file of its own, so the page needs no inline script. */
export const DOCS_INIT_SCRIPT = `window.ui = SwaggerUIBundle({
  url: document.getElementById('api-reference').dataset.url,
  dom_id: '#api-reference',
});
`;

const cache = new Map<string, Promise<Buffer>>();

/** An asset of the docs page, read once from the installed package. */
export function readDocsAsset(name: string): Promise<Buffer> | undefined {
  if (!(name in DOCS_ASSETS)) return undefined;
  let asset = cache.get(name);
  if (!asset) {
    asset = readFile(join(swaggerUiPath(), name));
    cache.set(name, asset);
  }
  return asset;
}
