// Runs wherever the client runs: browsers, Node 20+, Bun, Deno and Workers (plain data, no runtime API).
/**
 * Every `code` a {@link PlantStoreError} can carry, by name.
 *
 * The numbers are the server's stable `error` codes (docs/contract.md, "Status
 * codes and the Error body"); the strings are failures the client observed
 * itself, with no Error body to read. Branch on them, never on `message`:
 *
 * @example
 * if (error.code === ErrorCode.Conflict) console.log('id taken with other content');
 */
export const ErrorCode = {
  /** 400: no body, or an empty one. */
  BodyMissing: 1000,
  /** 400: not valid UTF-8 or not valid JSON. */
  InvalidJson: 1001,
  /** 400: valid JSON, but not an object. */
  NotAnObject: 1002,
  /** 400: a required field is missing (id, name). */
  FieldMissing: 1003,
  /** 400: a field has the wrong type or is out of range. */
  FieldInvalid: 1004,
  /** 400: not a valid HTTP request. */
  MalformedRequest: 1005,
  /** 401: no credentials, another scheme, or an empty token. */
  Unauthenticated: 1100,
  /** 401: the token was rejected. */
  TokenRejected: 1101,
  /** 403: a CORS preflight from an origin the server does not allow. A browser reports it as a network error, so a client sees it only outside one. */
  OriginNotAllowed: 1102,
  /** 403: the token is valid but does not grant the scope the server requires (a JWT verifier with a required scope). */
  InsufficientScope: 1103,
  /** 503: the server cannot check the token now (its identity provider's keys are out of its reach). Retried, after `Retry-After`. */
  TokenCheckUnavailable: 1104,
  /** 404: no such route; `baseUrl` is probably wrong. */
  NotFound: 1200,
  /** 405: method not allowed on this route. */
  MethodNotAllowed: 1201,
  /** 409: a plant with this id exists with a different name or tag. */
  Conflict: 1300,
  /** 413: the body is larger than the server's limit. */
  BodyTooLarge: 1400,
  /** 415: Content-Type is not JSON. */
  UnsupportedMediaType: 1401,
  /** 408: the request was not received in time. Retried. */
  RequestTimeout: 1402,
  /** 431: the request headers are too large (a very long token). */
  HeadersTooLarge: 1403,
  /** 429: the token made more creates than the server's per-token rate limit allows; nothing was done. Retried, after `Retry-After`. */
  RateLimited: 1404,
  /** 500: unexpected internal error. */
  Internal: 1500,
  /** 503: the storage failed or is unavailable, or the server is shutting down. Retried. */
  StorageUnavailable: 1501,
  /** 507: the storage is full. */
  StorageFull: 1502,
  /** 503: the server is busy (too many requests in flight, or its event loop is behind); nothing was done. Retried, after `Retry-After`. */
  Overloaded: 1503,
  /** No answer: the connection failed or was cut before the whole answer arrived. Retried. */
  Network: 'network',
  /** No answer within `timeoutMs`. Retried. */
  Timeout: 'timeout',
  /** The caller's `signal` aborted the call. Never retried. */
  Aborted: 'aborted',
  /** Refused before sending: the plant cannot be sent exactly (an id past 2^53 as a number, out of int64, a name that is not a string). */
  InvalidInput: 'invalid-input',
  /** An answer that is not one the contract allows: a proxy's HTML page, an unknown `error` code, a 200 that is no Plant. */
  UnexpectedResponse: 'unexpected-response',
  /** A redirect (any 3xx, or a browser's opaque redirect): not followed, so that the plant never goes to another URL than `baseUrl`'s. Never retried. */
  Redirected: 'redirected',
  /** A 200 whose Plant is not the one sent (another name or tag): the answer cannot be trusted. Never retried. */
  PlantMismatch: 'plant-mismatch',
  /** An answer larger than the client reads (64 KiB plus six times the request's size), refused unread or cut off there. Never retried. */
  AnswerTooLarge: 'answer-too-large',
} as const;

/** Any value of {@link ErrorCode}. */
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** The codes a server's Error body can carry. */
export type ServerErrorCode = Extract<ErrorCode, number>;

/** The codes of failures the client observed itself. */
export type ClientErrorCode = Extract<ErrorCode, string>;

const serverCodes: ReadonlySet<number> = new Set(Object.values(ErrorCode).filter((code) => typeof code === 'number'));

/** Whether `code` is one of the contract's Error codes that this client knows. */
export function isServerErrorCode(code: unknown): code is ServerErrorCode {
  return typeof code === 'number' && serverCodes.has(code);
}
