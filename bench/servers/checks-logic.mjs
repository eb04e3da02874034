// Plant Store's own checks, the core's exported functions, called by hand from
// one function per request with none of Plant Store's structure (no exchange
// of steps, no request or response objects of an adapter, no answer callback):
// the bearer credential read as the contract reads it (`readBearerCredential`)
// and checked by `staticTokens`; the media type by `isJsonMediaType`; the body
// by `parseNewPlant` (strict UTF-8, the exact int64 id, the schema); the
// memory store's insert-if-absent; the request id by `requestIdOf`. Beside the
// hand-written baseline, its cost is what the contract's work costs on its
// own; beside Plant Store, what Plant Store's structure costs. Used by the
// in-process table only (bench/in-process.mjs).
import { errorResponse, isJsonMediaType, JSON_HEADERS, parseNewPlant, readBearerCredential, requestIdOf, staticTokens } from '@plant-store/core';
import { createMemoryStore } from '@plant-store/store-memory';
import { BENCH_STORE_BOUNDS, MAX_BODY_BYTES, token } from './baseline-logic.mjs';

/** @typedef {import('@plant-store/core').PlantResponse} PlantResponse */

const NOT_FOUND = errorResponse('not-found', 'no such route');
const NOT_ALLOWED = errorResponse('method-not-allowed', 'method not allowed; allowed: POST', { allow: 'POST' });
const UNAUTHENTICATED = errorResponse('unauthenticated', 'authorization: expected "Bearer <token>"');
const REJECTED = errorResponse('token-rejected', 'authorization: the token was rejected');
const TOO_LARGE = errorResponse('body-too-large', `body: larger than the limit of ${MAX_BODY_BYTES} bytes`);
const NO_BODY = errorResponse('body-missing', 'body: required; expected a JSON NewPlant object');
const NOT_JSON_TYPE = errorResponse('unsupported-media-type', 'content-type: expected application/json (UTF-8)');

/** The checks of one create, split where a server reads the body: before it and after it. */
export function createChecks() {
  const store = createMemoryStore(BENCH_STORE_BOUNDS);
  const authenticate = staticTokens([token]);
  return {
    /**
     * The answer to a request refused before its body is read, or undefined.
     * @param {string} method
     * @param {string} path
     * @param {string | undefined} authorization
     * @param {string | undefined} contentLength
     * @returns {PlantResponse | undefined}
     */
    admit(method, path, authorization, contentLength) {
      if (path !== '/plants') return NOT_FOUND;
      if (method !== 'POST') return NOT_ALLOWED;
      const credential = readBearerCredential(authorization);
      if (credential.kind === 'missing') return UNAUTHENTICATED;
      // staticTokens reads the token alone, never the request.
      if (credential.kind === 'malformed' || authenticate(credential.token, /** @type {never} */ (undefined)) !== true) return REJECTED;
      if (contentLength !== undefined && Number(contentLength) > MAX_BODY_BYTES) return TOO_LARGE;
      return undefined;
    },
    /**
     * The answer to an admitted request's body.
     * @param {string | undefined} contentType
     * @param {Uint8Array} bytes
     * @returns {PlantResponse}
     */
    create(contentType, bytes) {
      if (bytes.length === 0) return NO_BODY;
      if (!isJsonMediaType(contentType)) return NOT_JSON_TYPE;
      const parsed = parseNewPlant(bytes);
      if (!parsed.ok) return errorResponse(parsed.error.kind, parsed.error.message);
      const { id, name, tag } = parsed.value;
      const plant = tag === undefined ? { name } : { name, tag };
      const inserted = store.insertIfAbsent(id, plant);
      if (inserted.status === 'full') return errorResponse('storage-full', 'the plant store is full');
      if (inserted.status === 'exists' && (inserted.existing.name !== name || inserted.existing.tag !== tag)) {
        return errorResponse('conflict', `id: a plant with id ${id} already exists with a different name or tag`);
      }
      return { status: 200, headers: JSON_HEADERS, body: JSON.stringify(plant) };
    },
  };
}

/** The request id of an answer, as Plant Store chooses it. */
export const requestIdFor = requestIdOf;
