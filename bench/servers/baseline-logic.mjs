// The work every contender does, written by hand the cheapest honest way, with
// no framework: route and method; the bearer token by `startsWith`, a length
// check and a constant-time XOR loop over its characters (no hashing, no
// allocation, as Plant Store compares); the media type by `startsWith`;
// `JSON.parse`; object, required-field, type and int64-range checks; a Map
// insert-if-absent with replay 200 and conflict 409; the same statuses and
// Error bodies; and, as the standalone servers do on every answer, an
// `x-request-id`: the request's own when it is sane, else `crypto.randomUUID()`.
// It is the ceiling each runtime's contenders are measured against.

/** @typedef {[status: number, json: string]} Answer */
/**
 * @callback Handle
 * @param {string | undefined} method
 * @param {string} path
 * @param {string | null | undefined} authorization
 * @param {string | null | undefined} contentType
 * @param {string} body
 * @returns {Answer}
 */

const REQUEST_ID = /^[A-Za-z0-9+/=._:-]{1,128}$/;

/**
 * The request id to echo: the request's `X-Request-Id` when it is 1 to 128
 * characters of `A-Z a-z 0-9 + / = . _ : -`, else a new random UUID.
 *
 * @param {string | string[] | null | undefined} given
 * @returns {string}
 */
export function requestId(given) {
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : crypto.randomUUID();
}

/**
 * The memory store's bounds in the benchmark's Plant Store contenders: more
 * plants than a run creates at the fastest rate seen (Deno.serve, about 80,000
 * a second for 12 s), so that none of them meets its store's bound (507, the
 * default of 1,000,000 plants) where the baselines' `Map` has none.
 */
export const BENCH_STORE_BOUNDS = Object.freeze({ maxPlants: 10_000_000, maxBytes: 2 ** 32 });

/** Largest body accepted, as Plant Store's default. */
export const MAX_BODY_BYTES = 1024 * 1024;

/** @type {(status: number, code: number, message: string) => Answer} */
const error = (status, code, message) => [status, JSON.stringify({ error: code, message })];
const NOT_FOUND = error(404, 1200, 'no such route');
const NOT_ALLOWED = error(405, 1201, 'method not allowed; allowed: POST');
const UNAUTHENTICATED = error(401, 1100, 'authorization: expected "Bearer <token>"');
const REJECTED = error(401, 1101, 'authorization: the token was rejected');
const NO_BODY = error(400, 1000, 'body: required; expected a JSON NewPlant object');
/** The answer to a body over {@link MAX_BODY_BYTES}. */
export const TOO_LARGE = error(413, 1400, `body: larger than the limit of ${MAX_BODY_BYTES} bytes`);
const NOT_JSON_TYPE = error(415, 1401, 'content-type: expected application/json (UTF-8)');
const BAD_JSON = error(400, 1001, 'invalid JSON');
const NOT_OBJECT = error(400, 1002, 'body: expected a JSON object');
const MISSING = error(400, 1003, 'id and name are required');
const BAD_FIELD = error(400, 1004, 'id: expected an int64 integer; name, tag: expected strings');
const CONFLICT = error(409, 1300, 'id: exists with a different name or tag');
const INT64_LIMIT = 2 ** 63;

/**
 * Returns `handle(method, path, authorization, contentType, body) → [status, json]`.
 * @param {string} token
 * @returns {Handle}
 */
export function createPlantLogic(token) {
  const length = token.length;
  /** @type {Map<number, { name: string, tag?: string }>} */
  const plants = new Map();
  return function handle(method, path, authorization, contentType, body) {
    if (path !== '/plants') return NOT_FOUND;
    if (method !== 'POST') return NOT_ALLOWED;
    if (authorization === undefined || authorization === null || !authorization.startsWith('Bearer ')) return UNAUTHENTICATED;
    if (authorization.length - 7 !== length) return REJECTED;
    let difference = 0;
    for (let i = 0; i < length; i++) difference |= authorization.charCodeAt(i + 7) ^ token.charCodeAt(i);
    if (difference !== 0) return REJECTED;
    if (body.length === 0) return NO_BODY;
    if (contentType === undefined || contentType === null || !contentType.startsWith('application/json')) return NOT_JSON_TYPE;
    let json;
    try {
      json = JSON.parse(body);
    } catch {
      return BAD_JSON;
    }
    if (typeof json !== 'object' || json === null || Array.isArray(json)) return NOT_OBJECT;
    const { id, name, tag } = json;
    if (id === undefined || name === undefined) return MISSING;
    if (!Number.isInteger(id) || id < -INT64_LIMIT || id >= INT64_LIMIT || typeof name !== 'string' || (tag !== undefined && typeof tag !== 'string'))
      return BAD_FIELD;
    const existing = plants.get(id);
    if (existing === undefined) {
      const plant = tag === undefined ? { name } : { name, tag };
      plants.set(id, plant);
      return [200, JSON.stringify(plant)];
    }
    if (existing.name !== name || existing.tag !== tag) return CONFLICT;
    return [200, JSON.stringify(existing)];
  };
}

export const port = Number(process.env.PORT ?? 0);
export const host = process.env.HOST ?? '127.0.0.1';
export const token = process.env.PLANT_STORE_TOKENS ?? 'bench-token';

/**
 * Whether a presented bearer token is {@link token}, compared as the baselines
 * compare it: its length, then a constant-time XOR loop over its characters.
 * For the peers' own hooks (Fastify, Elysia), which hand over the token alone.
 * @param {string} presented
 */
export function acceptedToken(presented) {
  if (presented.length !== token.length) return false;
  let difference = 0;
  for (let i = 0; i < token.length; i++) difference |= presented.charCodeAt(i) ^ token.charCodeAt(i);
  return difference === 0;
}
