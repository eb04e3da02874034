// Runs anywhere (no runtime API): the Error bodies the handler answers with, from the error table.
import { errorTable, type ErrorKind } from '../domain/error-table.ts';
import type { PlantResponse } from './http-types.ts';

/** Headers of every JSON answer; shared, never mutated. */
export const JSON_HEADERS: Readonly<Record<string, string>> = Object.freeze({ 'content-type': 'application/json' });

/** The `WWW-Authenticate` challenge of every refused credential (docs/contract.md, "Authentication"); refusals add their `error`. */
export const REALM = 'Bearer realm="plant-store"';

// Status-specific headers (RFC 6750 §3, RFC 9110 §15.5.6); every other kind gets JSON_HEADERS.
const EXTRA_HEADERS: Partial<Record<ErrorKind, Readonly<Record<string, string>>>> = {
  unauthenticated: Object.freeze({ ...JSON_HEADERS, 'www-authenticate': REALM }),
  'token-rejected': Object.freeze({ ...JSON_HEADERS, 'www-authenticate': `${REALM}, error="invalid_token"` }),
};

/**
 * The answer for a failure: the table's status, the interface's Error body
 * `{"error": code, "message": ...}`, and the headers the status requires
 * (`WWW-Authenticate` for 401; a 405 passes its `Allow` in `headers`).
 */
export function errorResponse(kind: ErrorKind, message: string, headers?: Readonly<Record<string, string>>): PlantResponse {
  const { status, code } = errorTable[kind];
  return {
    status,
    headers: headers === undefined ? (EXTRA_HEADERS[kind] ?? JSON_HEADERS) : Object.freeze({ ...JSON_HEADERS, ...headers }),
    body: `{"error":${code},"message":${JSON.stringify(message)}}`,
    error: code,
  };
}

/**
 * The answer to a request that arrives while a server drains for shutdown:
 * 503 (1501), to be sent with `Connection: close` so the client retries on a
 * new connection, to a server that is still accepting.
 */
export const SHUTTING_DOWN: PlantResponse = errorResponse('storage-unavailable', 'the server is shutting down; retry on a new connection');

/** The failures an HTTP server meets before there is a request to hand the core. */
export type ProtocolErrorKind = 'malformed-request' | 'request-timeout' | 'headers-too-large';

/**
 * The answers to requests an HTTP server could not read: not HTTP (400, 1005),
 * too slow (408, 1402), headers too large (431, 1403). A server that can write
 * its own protocol errors (the standalone Node, Deno and workerd servers) sends these.
 */
export const PROTOCOL_ERRORS: Readonly<Record<ProtocolErrorKind, PlantResponse>> = Object.freeze({
  'malformed-request': errorResponse('malformed-request', 'not a valid HTTP/1.1 request'),
  'request-timeout': errorResponse('request-timeout', 'the request was not received in time'),
  'headers-too-large': errorResponse('headers-too-large', 'the request headers are too large'),
});
