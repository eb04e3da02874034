// Runs anywhere (no runtime API): expected failures as values, and the result they travel in.
import type { ErrorKind } from './error-table.ts';

/**
 * An expected failure, as a value. `message` is safe to show to the client;
 * `cause` (a thrown store error, say) is only ever handed to `onError`.
 */
export interface Failure {
  readonly kind: ErrorKind;
  readonly message: string;
  readonly cause?: unknown;
}

/** The result of a step that can fail in an expected way. */
export type Result<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: Failure };

/** Wraps a failure kind and message in a failed {@link Result}. */
export function fail(kind: ErrorKind, message: string, cause?: unknown): { readonly ok: false; readonly error: Failure } {
  return { ok: false, error: cause === undefined ? { kind, message } : { kind, message, cause } };
}
