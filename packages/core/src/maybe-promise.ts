/** A value, or a promise of it: what an app's callback may return. */
export type MaybePromise<T> = T | Promise<T>;

/**
 * `next(value)` once `value` is there: at once for a plain value, after it settles for a promise.
 * The verifier's steps are chained with it so that a request whose handler answers at once costs
 * no promise after its body is read.
 */
export function whenReady<T, U>(value: MaybePromise<T>, next: (value: T) => U): MaybePromise<U> {
  return value instanceof Promise ? value.then(next) : next(value);
}
