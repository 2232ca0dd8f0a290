/** Where the /docs page loads Scalar's API reference script from, at view time. */
export const DEFAULT_DOCS_SCRIPT_URL = 'https://cdn.jsdelivr.net/npm/@scalar/api-reference';

const escapeAttribute = (value: string) =>
  value.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;');

/**
 * The HTML of the /docs page: Scalar's API reference rendering the document at `specUrl`. The
 * script is loaded by the browser from `scriptUrl`; the mock itself fetches nothing.
 */
export function renderDocsPage(
  specUrl: string,
  scriptUrl: string = DEFAULT_DOCS_SCRIPT_URL,
): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>questkit mock platform: public API</title>
  </head>
  <body>
    <script id="api-reference" data-url="${escapeAttribute(specUrl)}"></script>
    <script src="${escapeAttribute(scriptUrl)}"></script>
  </body>
</html>
`;
}
