/** A request example of one operation: its path and query parameters and its body. */
export interface RequestExample {
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
}

/** Request examples on one community's data, for `buildOpenApiDocument`. */
export interface OpenApiExamples {
  /** The community the examples call (the `{subdomain}` of every path). */
  subdomain: string;
  /** The `x-api-key` the curl lines send. */
  apiKey: string;
  /** One request example per operation, by operationId. */
  requests: Readonly<Record<string, RequestExample>>;
}

/** The example as a curl line against the server at `serverUrl`. */
export function exampleCurl(
  method: string,
  path: string,
  example: RequestExample,
  examples: Pick<OpenApiExamples, 'subdomain' | 'apiKey'>,
  serverUrl: string,
): string {
  const filled = path.replace(/\{(\w+)\}/g, (_, name: string) =>
    name === 'subdomain' ? examples.subdomain : (example.params?.[name] ?? `<${name}>`),
  );
  const query = new URLSearchParams(example.query ?? {}).toString();
  const verb = method.toUpperCase() === 'GET' ? '' : `-X ${method.toUpperCase()} `;
  const body =
    example.body === undefined
      ? ''
      : ` -H 'content-type: application/json' -d '${JSON.stringify(example.body)}'`;
  return `curl ${verb}'${serverUrl}${filled}${query ? `?${query}` : ''}' -H 'x-api-key: ${examples.apiKey}'${body}`;
}
