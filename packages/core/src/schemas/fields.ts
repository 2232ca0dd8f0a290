import * as z from 'zod';

// Field builders shared by the resource schemas. Internal: not re-exported from the package, so
// the public API stays the resource schemas themselves.

/** An ISO 8601 date-time with `Z` or a numeric offset, as every timestamp of the contract. */
export const dateTime = () => z.iso.datetime({ offset: true });

/**
 * An absolute http(s) URL. The contract only says "URI"; we narrow to http(s) because the
 * platform POSTs to these addresses (verification calls, webhook deliveries).
 */
export const httpUrl = () => z.url({ protocol: /^https?$/ });

/** A count of things: a non-negative integer (the contract says "number (count)"). */
export const count = () => z.number().int().min(0);

const DIGITS = /^[0-9]+$/;

/**
 * An integer query parameter: digits only (`0x1`, `1e3`, ` 1 ` and `1.5` are refused, where
 * `Number()` would take them), then the range. Numbers pass as they are, so a client may write
 * `page: 2`. The caller names the parameter; the messages say what is wrong with the value.
 * Give a default with `.prefault()`: JSON Schema shows a `.default()` after a preprocess only on
 * output.
 */
export const queryInt = (min: number, max: number): z.ZodType<number, number | string> =>
  z.preprocess(
    (value) => (typeof value === 'string' && DIGITS.test(value) ? Number(value) : value),
    z
      .int({
        error: (issue) =>
          issue.code !== 'invalid_type'
            ? undefined
            : issue.input === undefined
              ? 'Required'
              : 'Expected an integer written in digits',
      })
      .min(min)
      .max(max),
  );

/**
 * A uuid in a request (path, query or body): matched case-insensitively, so it is lowered on
 * parse (`overwrite` keeps it a plain uuid in JSON Schema). Every id the platform hands out is lower case (RFC 9562 writes them so), and a client
 * that upper-cases one should find the same resource rather than a 404.
 */
export const requestUuid = () => z.uuid().overwrite((value) => value.toLowerCase());

/**
 * A list cursor in a query, nullable (add `.optional()`). `cursor=` and `cursor=null` both mean
 * "no cursor", the first page: the contract marks the cursor nullable, and a query string can
 * only spell null as one of these. Neither is ever a cursor the platform hands out.
 */
export const queryCursor = <T extends z.ZodType<string, string>>(
  cursor: T,
): z.ZodType<string | null, string | null> =>
  z.preprocess((value) => (value === '' || value === 'null' ? null : value), cursor.nullable());
