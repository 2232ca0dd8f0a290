import { z } from 'zod';

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

/**
 * An integer query parameter. Query values arrive as strings, so they are coerced; a value that is
 * not an integer (`abc`, `1.5`) is rejected, and the issue path names the parameter.
 */
export const queryInt = (min: number, max: number) => z.coerce.number().int().min(min).max(max);
