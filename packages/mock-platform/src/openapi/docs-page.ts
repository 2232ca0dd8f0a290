// The /docs page: the OpenAPI document rendered on the server into plain HTML, with one
// stylesheet of our own (docs.css beside this file). No script and no third-party package: nothing to install (no install
// scripts), nothing fetched (it works offline), and every text of the document is escaped, so a
// description such as "Bearer <member token>" shows as written and can never become markup.

import type { JsonSchema } from '@questkit/core/openapi';
import type { OpenApiDocument } from './document.js';

/** Only our stylesheet and icon; no script at all, no framing. */
export const DOCS_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy':
    "default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  // frame-ancestors for current browsers, X-Frame-Options for those that predate it.
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

/** Escapes text for HTML content and attribute values. */
export function escapeHtml(value: unknown): string {
  return String(value)
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/** Escaped prose where `code` spans (backticks) become <code>. */
function prose(text: unknown): string {
  if (typeof text !== 'string' || text === '') return '';
  return escapeHtml(text).replace(/`([^`]+)`/g, '<code>$1</code>');
}

const anchor = (kind: string, name: string) => `${kind}-${name.replace(/[^A-Za-z0-9_-]/g, '_')}`;

const schemaName = (ref: string) => ref.split('/').at(-1) ?? ref;

/** A schema's type in words, with links to named schemas: `array of Quest`, `string (uuid)`. */
function typeOf(schema: JsonSchema | undefined, depth = 0): string {
  if (!schema || depth > 6) return 'any';
  if (typeof schema.$ref === 'string') {
    const name = schemaName(schema.$ref);
    return `<a href="#${anchor('schema', name)}">${escapeHtml(name)}</a>`;
  }
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const branches = schema[key];
    if (Array.isArray(branches)) {
      return (branches as JsonSchema[])
        .map((branch) => typeOf(branch, depth + 1))
        .join(key === 'allOf' ? ' &amp; ' : ' | ');
    }
  }
  if (schema.const !== undefined) return `<code>${escapeHtml(JSON.stringify(schema.const))}</code>`;
  if (Array.isArray(schema.enum)) {
    return (schema.enum as unknown[])
      .map((value) => `<code>${escapeHtml(JSON.stringify(value))}</code>`)
      .join(' | ');
  }
  const type = Array.isArray(schema.type) ? schema.type.join(' | ') : schema.type;
  if (type === 'array') return `array of ${typeOf(schema.items as JsonSchema, depth + 1)}`;
  if (type === 'object' || (type === undefined && schema.properties)) return 'object';
  const format = typeof schema.format === 'string' ? ` (${escapeHtml(schema.format)})` : '';
  return `${escapeHtml(type ?? 'any')}${format}`;
}

/** The limits of a schema in words: `1 to 100`, `at most 100 characters`, `default 10`. */
function limitsOf(schema: JsonSchema | undefined): string {
  if (!schema) return '';
  const parts: string[] = [];
  const { minimum, maximum, minLength, maxLength, minItems, maxItems } = schema;
  if (minimum !== undefined && maximum !== undefined) parts.push(`${minimum} to ${maximum}`);
  else if (minimum !== undefined) parts.push(`at least ${minimum}`);
  else if (maximum !== undefined) parts.push(`at most ${maximum}`);
  if (minLength !== undefined) parts.push(`at least ${minLength} characters`);
  if (maxLength !== undefined) parts.push(`at most ${maxLength} characters`);
  if (minItems !== undefined) parts.push(`at least ${minItems} items`);
  if (maxItems !== undefined) parts.push(`at most ${maxItems} items`);
  if (schema.default !== undefined) parts.push(`default ${JSON.stringify(schema.default)}`);
  for (const branch of (schema.anyOf as JsonSchema[] | undefined) ?? []) {
    const inner = limitsOf(branch);
    if (inner) parts.push(inner);
  }
  return escapeHtml(parts.join('; '));
}

function table(head: string[], rows: string[][]): string {
  if (rows.length === 0) return '';
  return `<table><thead><tr>${head.map((h) => `<th scope="col">${h}</th>`).join('')}</tr></thead><tbody>${rows
    .map((row) => `<tr>${row.map((cell) => `<td>${cell}</td>`).join('')}</tr>`)
    .join('')}</tbody></table>`;
}

/** The fields of an object schema as a table. */
function fieldsTable(schema: JsonSchema): string {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  return table(
    ['Field', 'Type', 'Required', 'Limits', 'Description'],
    Object.entries(properties).map(([name, field]) => [
      `<code>${escapeHtml(name)}</code>`,
      typeOf(field),
      required.has(name) ? 'yes' : '',
      limitsOf(field),
      prose(field.description),
    ]),
  );
}

type Parameter = {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: JsonSchema;
  example?: unknown;
};
type Operation = {
  operationId: string;
  summary?: string;
  description?: string;
  tags?: string[];
  security?: Record<string, unknown>[];
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema; example?: unknown }> };
  responses?: Record<string, { $ref?: string; description?: string; content?: unknown }>;
  'x-codeSamples'?: { label?: string; source: string }[];
};

function renderOperation(
  document: OpenApiDocument,
  path: string,
  method: string,
  op: Operation,
): string {
  const parameters = table(
    ['Name', 'In', 'Type', 'Required', 'Limits', 'Description', 'Example'],
    (op.parameters ?? []).map((p) => [
      `<code>${escapeHtml(p.name)}</code>`,
      escapeHtml(p.in),
      typeOf(p.schema),
      p.required ? 'yes' : '',
      limitsOf(p.schema),
      prose(p.description),
      p.example === undefined ? '' : `<code>${escapeHtml(JSON.stringify(p.example))}</code>`,
    ]),
  );
  const body = op.requestBody?.content?.['application/json'];
  const responses = table(
    ['Status', 'Meaning', 'Body'],
    Object.entries(op.responses ?? {}).map(([status, response]) => {
      const shared = response.$ref
        ? (document.components.responses[schemaName(response.$ref)] as typeof response | undefined)
        : response;
      const content = (shared?.content as Record<string, { schema?: JsonSchema }> | undefined)?.[
        'application/json'
      ];
      return [
        `<code>${escapeHtml(status)}</code>`,
        prose(shared?.description),
        content?.schema ? typeOf(content.schema) : 'none',
      ];
    }),
  );
  const security = (op.security ?? [])
    .flatMap((requirement) => Object.keys(requirement))
    .map((name) => `<code>${escapeHtml(name)}</code>`)
    .join(' or ');
  return `<section class="operation" id="${anchor('op', op.operationId)}" aria-labelledby="${anchor('op', op.operationId)}-title">
<h3 id="${anchor('op', op.operationId)}-title"><span class="method method-${escapeHtml(method)}">${escapeHtml(method.toUpperCase())}</span> <code>${escapeHtml(path)}</code></h3>
<p class="summary">${prose(op.summary)} <span class="muted">(${escapeHtml(op.operationId)})</span></p>
${op.description ? `<p>${prose(op.description)}</p>` : ''}
${security ? `<p>Credentials: ${security}</p>` : ''}
${parameters ? `<h4>Parameters</h4>${parameters}` : ''}
${body ? `<h4>Request body</h4><p>${typeOf(body.schema)}, JSON</p>${body.example !== undefined ? `<pre><code>${escapeHtml(JSON.stringify(body.example, null, 2))}</code></pre>` : ''}` : ''}
<h4>Responses</h4>${responses}
${(op['x-codeSamples'] ?? []).map((sample) => `<h4>Example (${escapeHtml(sample.label ?? 'shell')})</h4><pre><code>${escapeHtml(sample.source)}</code></pre>`).join('')}
</section>`;
}

/**
 * The HTML of the /docs page for a document: every operation (parameters, body, answers, a curl
 * example) grouped by tag, the credentials, and every named schema with its fields.
 */
export function renderDocsPage(document: OpenApiDocument): string {
  const operations: { tag: string; html: string; label: string; id: string }[] = [];
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, value] of Object.entries(methods)) {
      const op = value as Operation;
      operations.push({
        tag: op.tags?.[0] ?? 'other',
        html: renderOperation(document, path, method, op),
        label: `${method.toUpperCase()} ${path.replace(/^\/public\/communities\/\{subdomain\}/, '')}`,
        id: anchor('op', op.operationId),
      });
    }
  }
  const tags = [...new Set(operations.map((op) => op.tag))];
  const toc = tags
    .map(
      (tag) =>
        `<li>${escapeHtml(tag)}<ul>${operations
          .filter((op) => op.tag === tag)
          .map(
            (op) => `<li><a href="#${op.id}"><code>${escapeHtml(op.label || '/')}</code></a></li>`,
          )
          .join('')}</ul></li>`,
    )
    .join('');
  const schemes = table(
    ['Name', 'How', 'Description'],
    Object.entries(document.components.securitySchemes).map(([name, value]) => {
      const scheme = value as {
        type?: string;
        in?: string;
        name?: string;
        scheme?: string;
        description?: string;
      };
      const how =
        scheme.type === 'apiKey'
          ? `header <code>${escapeHtml(scheme.name)}</code>`
          : `<code>authorization: ${escapeHtml(scheme.scheme === 'bearer' ? 'Bearer' : scheme.scheme)} &lt;token&gt;</code>`;
      return [`<code>${escapeHtml(name)}</code>`, how, prose(scheme.description)];
    }),
  );
  const schemas = Object.entries(document.components.schemas)
    .map(
      ([name, schema]) =>
        `<section class="schema" id="${anchor('schema', name)}"><h3>${escapeHtml(name)}</h3><p>${typeOf(schema)}</p>${prose(schema.description) ? `<p>${prose(schema.description)}</p>` : ''}${fieldsTable(schema)}</section>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8" />
  <meta name="viewport" content="width=device-width, initial-scale=1" />
  <title>${escapeHtml(document.info.title)}</title>
  <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
  <link rel="stylesheet" href="/docs/assets/docs.css" />
</head>
<body>
<header>
  <h1>${escapeHtml(document.info.title)} <span class="muted">${escapeHtml(document.info.version)}</span></h1>
  <p>${prose(document.info.description)}</p>
  <p>The document itself: <a href="/openapi.json">/openapi.json</a> (OpenAPI ${escapeHtml(document.openapi)}). Servers: ${document.servers.map((s) => `<code>${escapeHtml(s.url)}</code>`).join(', ')}.</p>
</header>
<nav aria-label="Operations"><h2>Operations</h2><ul>${toc}</ul><p><a href="#schemas">Schemas</a></p></nav>
<main>
<section id="credentials"><h2>Credentials</h2>${schemes}</section>
${tags
  .map(
    (tag) =>
      `<section><h2>${escapeHtml(tag)}</h2>${operations
        .filter((op) => op.tag === tag)
        .map((op) => op.html)
        .join('\n')}</section>`,
  )
  .join('\n')}
<section id="schemas"><h2>Schemas</h2>${schemas}</section>
</main>
</body>
</html>
`;
}
