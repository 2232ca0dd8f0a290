/**
 * Bad input for every public route of the mock platform, derived from its own OpenAPI document
 * (which the mock generates from the schemas it validates with): for each parameter, header and
 * body field, values of the wrong type, out of range, over length, malformed uuids and uris, and
 * injection-looking strings. Each case says whether the mock must refuse it (400 naming the
 * field) or may accept it (a free-text value), in which case only "never a 5xx" is asked.
 */

/** A JSON schema fragment, as the OpenAPI document holds it. */
export interface Schema {
  type?: string;
  format?: string;
  enum?: unknown[];
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  anyOf?: Schema[];
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  $ref?: string;
}

/** Where a value goes. */
export type Location = 'path' | 'query' | 'header' | 'body';

/** One bad value for one field. */
export interface BadValue {
  label: string;
  value: unknown;
  /** true: must be a 400 naming the field; false: anything but a 5xx. */
  mustRefuse: boolean;
}

/** Strings that look like attacks on a backend: they must be data, never code. */
export const INJECTIONS = [
  "' OR '1'='1' --",
  '"; DROP TABLE users; --',
  '<script>alert(1)</script>',
  '../../../../etc/passwd',
  '..%2f..%2fetc%2fpasswd',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template injection probe, on purpose.
  '${7*7}',
  '{{7*7}}',
  '#{7*7}',
  '$(reboot)',
  '`id`',
  '{"$gt": ""}',
  '__proto__',
  'constructor.prototype',
  '\u202e\u0645\u0631\u062d\u0628\u0627',
  '\u0000',
  '%00',
  'null',
  'undefined',
  'NaN',
];

/** The schema without its null alternative, and whether null is allowed. */
export function effective(schema: Schema): { schema: Schema; nullable: boolean } {
  if (schema.anyOf) {
    const nonNull = schema.anyOf.filter((option) => option.type !== 'null');
    return { schema: nonNull[0] ?? {}, nullable: nonNull.length < schema.anyOf.length };
  }
  return { schema, nullable: false };
}

const UUID = '7d3f2c1e-9b8a-4c6d-8e5f-0a1b2c3d4e5f';

/** Bad values for a field that travels as text (path, query, header). */
export function badTextValues(raw: Schema): BadValue[] {
  const { schema } = effective(raw);
  const out: BadValue[] = [];
  const must = (label: string, value: string) => out.push({ label, value, mustRefuse: true });
  const may = (label: string, value: string) => out.push({ label, value, mustRefuse: false });
  if (schema.type === 'integer' || schema.type === 'number') {
    must('not a number', 'abc');
    must('number with junk', '12abc');
    if (schema.type === 'integer') must('fraction', '1.5');
    if (schema.minimum !== undefined) must('below minimum', String(schema.minimum - 1));
    if (schema.maximum !== undefined) must('above maximum', String(schema.maximum + 1));
    must('huge', '9'.repeat(400));
    must('injection', "1' OR '1'='1");
    return out;
  }
  if (schema.format === 'uuid') {
    must('not a uuid', 'not-a-uuid');
    must('uuid too long', `${UUID}0`);
    must('uuid with a bad digit', `g${UUID.slice(1)}`);
    must('injection in a uuid', "' OR 1=1 --");
    must('path traversal in a uuid', '../../etc/passwd');
    must('oversized uuid', UUID.repeat(200));
    return out;
  }
  if (schema.enum) {
    must('not in the enumeration', 'bogus');
    must('injection in an enumeration', `${String(schema.enum[0])}' OR 1=1`);
    return out;
  }
  if (schema.format === 'uri') {
    must('not a uri', 'not a uri');
    must('oversized non-uri', 'x'.repeat(3000));
  }
  if (schema.pattern) {
    must('pattern broken', '!bad value');
    must('pattern broken by length', 'a'.repeat(300));
  }
  if (schema.maxLength !== undefined) must('over maxLength', 'x'.repeat(schema.maxLength + 1));
  if (!schema.pattern && schema.format !== 'uri') {
    for (const injection of INJECTIONS) may(`injection ${JSON.stringify(injection)}`, injection);
    may('oversized string', 'x'.repeat(6_000));
  }
  return out;
}

/** Bad values for a JSON body field. */
export function badJsonValues(raw: Schema): BadValue[] {
  const { schema, nullable } = effective(raw);
  const out: BadValue[] = [];
  const must = (label: string, value: unknown) => out.push({ label, value, mustRefuse: true });
  const may = (label: string, value: unknown) => out.push({ label, value, mustRefuse: false });
  if (!nullable) must('null', null);
  const type = schema.type ?? (schema.$ref || schema.properties ? 'object' : undefined);
  if (type === 'string') {
    must('number for a string', 42);
    must('boolean for a string', true);
    must('array for a string', ['x']);
    must('object for a string', { value: 'x' });
    if (schema.format === 'uuid') {
      must('not a uuid', 'not-a-uuid');
      must('injection in a uuid', "' OR 1=1 --");
    }
    if (schema.format === 'uri') must('not a uri', 'not a uri');
    if (schema.enum) must('not in the enumeration', 'bogus');
    if (schema.minLength !== undefined && schema.minLength > 0) must('empty', '');
    if (schema.maxLength !== undefined) must('over maxLength', 'x'.repeat(schema.maxLength + 1));
    if (!schema.format && !schema.enum && !schema.pattern) {
      for (const injection of INJECTIONS) may(`injection ${JSON.stringify(injection)}`, injection);
      may('oversized string (200 KB)', 'x'.repeat(200_000));
    }
  } else if (type === 'integer' || type === 'number') {
    must('string for a number', '42');
    must('boolean for a number', true);
    must('array for a number', [1]);
    if (type === 'integer') must('fraction', 1.5);
    if (schema.minimum !== undefined) must('below minimum', schema.minimum - 1);
    if (schema.maximum !== undefined) must('above maximum', schema.maximum + 1);
    if (schema.maximum !== undefined) must('huge', 1e300);
  } else if (type === 'boolean') {
    must('string for a boolean', 'true');
    must('number for a boolean', 1);
  } else if (type === 'array') {
    must('string for an array', 'x');
    must('object for an array', { 0: 'x' });
    const items = effective(schema.items ?? {}).schema;
    if (items.type === 'string') must('number in a string array', [42]);
    if (items.type === 'string' && items.pattern)
      must('item breaking the pattern', ['not an event; DROP']);
    if (items.type === 'object' && (items.required?.length ?? 0) > 0)
      must('item missing its fields', [{}]);
  } else if (type === 'object') {
    must('string for an object', 'x');
    must('array for an object', []);
    must('number for an object', 7);
  }
  return out;
}

/** Bodies that are not a JSON object at all. */
export const BAD_BODIES: {
  label: string;
  text: string | Uint8Array<ArrayBuffer>;
  contentType?: string;
  /** false for what a lenient decoder may turn into a valid object. */
  mustRefuse?: boolean;
}[] = [
  { label: 'invalid JSON', text: '{"name": ' },
  { label: 'empty body', text: '' },
  { label: 'JSON null', text: 'null' },
  { label: 'JSON array', text: '[]' },
  { label: 'JSON string', text: '"x"' },
  { label: 'JSON number', text: '42' },
  { label: 'single quotes', text: "{'name': 'x'}" },
  { label: 'trailing comma', text: '{"name": "x",}' },
  { label: 'deeply nested', text: `${'['.repeat(20_000)}${']'.repeat(20_000)}` },
  {
    label: 'invalid UTF-8 in a string',
    text: new Uint8Array([0x7b, 0x22, 0x6e, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d]),
    mustRefuse: false,
  },
  { label: 'body over 1 MiB', text: `{"name": "${'x'.repeat(1_100_000)}"}` },
  { label: 'form body', text: 'name=x&uri=y', contentType: 'application/x-www-form-urlencoded' },
];
