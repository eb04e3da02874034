// The work every contender does, written by hand with no framework: check the
// bearer token (SHA-256 digests compared in constant time), the media type and
// the JSON, validate the fields, insert if absent in a Map, answer.
// It is the ceiling each runtime's contenders are measured against.
import { createHash, timingSafeEqual } from 'node:crypto';

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

/** @type {(status: number, code: number, message: string) => Answer} */
const error = (status, code, message) => [status, JSON.stringify({ error: code, message })];
const NOT_FOUND = error(404, 1200, 'no such route');
const NOT_ALLOWED = error(405, 1201, 'method not allowed');
const UNAUTHENTICATED = error(401, 1100, 'authorization: expected "Bearer <token>"');
const REJECTED = error(401, 1101, 'authorization: the token was rejected');
const NO_BODY = error(400, 1000, 'body: required');
const NOT_JSON_TYPE = error(415, 1401, 'content-type: expected application/json');
const BAD_JSON = error(400, 1001, 'invalid JSON');
const BAD_PLANT = error(400, 1004, 'expected {id: integer, name: string, tag?: string}');
const CONFLICT = error(409, 1300, 'id: exists with a different name or tag');

const sha256 = (/** @type {string} */ text) => createHash('sha256').update(text).digest();

/**
 * Returns `handle(method, path, authorization, contentType, body) → [status, json]`.
 * @param {string} token
 * @returns {Handle}
 */
export function createPlantLogic(token) {
  const expected = sha256(token);
  const plants = new Map();
  return function handle(method, path, authorization, contentType, body) {
    if (path !== '/plants') return NOT_FOUND;
    if (method !== 'POST') return NOT_ALLOWED;
    if (authorization === undefined || authorization === null || !authorization.startsWith('Bearer ')) return UNAUTHENTICATED;
    if (!timingSafeEqual(sha256(authorization.slice(7)), expected)) return REJECTED;
    if (body.length === 0) return NO_BODY;
    if (contentType === undefined || contentType === null || !contentType.startsWith('application/json')) return NOT_JSON_TYPE;
    let json;
    try {
      json = JSON.parse(body);
    } catch {
      return BAD_JSON;
    }
    if (typeof json !== 'object' || json === null) return BAD_PLANT;
    const { id, name, tag } = json;
    if (!Number.isSafeInteger(id) || typeof name !== 'string' || (tag !== undefined && typeof tag !== 'string')) return BAD_PLANT;
    const plant = tag === undefined ? { name } : { name, tag };
    const existing = plants.get(id);
    if (existing !== undefined && (existing.name !== name || existing.tag !== tag)) return CONFLICT;
    if (existing === undefined) plants.set(id, plant);
    return [200, JSON.stringify(plant)];
  };
}

export const port = Number(process.env.PORT ?? 0);
export const host = process.env.HOST ?? '127.0.0.1';
export const token = process.env.PLANT_STORE_TOKENS ?? 'bench-token';
