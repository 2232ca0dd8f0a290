// What an endpoint said, in its own words, for findings that quote it: the `message` or `error`
// of a JSON body (NestJS's array of messages joined), else the text, cut to a readable length.

const QUOTE_CHARS = 200;

/** The endpoint's own words: the `message` or `error` of a JSON body, else the text. */
export function endpointText(body: string | undefined): string | undefined {
  if (body === undefined || body.trim() === '') return undefined;
  let text = body.trim();
  try {
    const parsed = JSON.parse(text) as Record<string, unknown>;
    for (const value of [parsed.message, parsed.error]) {
      if (typeof value === 'string' && value.trim() !== '') {
        text = value.trim();
        break;
      }
      if (Array.isArray(value) && value.every((item) => typeof item === 'string')) {
        text = value.join('; ');
        break;
      }
    }
  } catch {
    // Not JSON: the text as it came.
  }
  const line = text.replace(/\s+/g, ' ');
  return line.length > QUOTE_CHARS ? `${line.slice(0, QUOTE_CHARS)}…` : line;
}

/** Whether a body is a page a person reads (a login step), not data. */
export function isHtmlPage(
  contentType: string | null | undefined,
  body: string | undefined,
): boolean {
  const text = (body ?? '').trimStart();
  try {
    JSON.parse(text);
    return false;
  } catch {
    // Not JSON: a page when it says so or looks like one.
  }
  return (
    /text\/html|application\/xhtml/i.test(contentType ?? '') || /^<(!doctype html|html)/i.test(text)
  );
}
