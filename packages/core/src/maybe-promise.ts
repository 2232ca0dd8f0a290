/** A value, or a promise of it: what an app's callback may return. */
export type MaybePromise<T> = T | Promise<T>;
