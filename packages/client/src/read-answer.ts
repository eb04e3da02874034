// Runs wherever the client runs: browsers, Node 20+, Bun, Deno and Workers (plain data, no runtime API).
import { ErrorCode, isServerErrorCode } from './error-code.ts';
import { parseJsonLosslessly } from './parse-json-losslessly.ts';
import type { NewPlant, Plant } from './plant.ts';
import { PlantStoreError } from './plant-store-error.ts';

/**
 * Statuses that say nothing about the plant, so the same create may be sent
 * again: 408 and 503 from the server (1402, 1501: the request did not arrive
 * in time, the store failed or the server is draining), 429, 502 and 504 from
 * a proxy in front of it. A create is idempotent per id, so a retry that finds
 * the plant stored answers 200.
 */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([408, 429, 502, 503, 504]);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A field of the answer itself, never one found on a prototype. */
function own(value: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(value, key) ? value[key] : undefined;
}

/** A 200 body as the contract defines it, `name` and `tag` when present, both strings and both the answer's own; else undefined. */
function plantOf(value: unknown): { name: string; tag: string | undefined } | undefined {
  if (!isRecord(value)) return undefined;
  const name = own(value, 'name');
  const tag = own(value, 'tag');
  return typeof name === 'string' && (tag === undefined || typeof tag === 'string') ? { name, tag } : undefined;
}

function parsed(body: string): unknown {
  try {
    return parseJsonLosslessly(body);
  } catch {
    return undefined;
  }
}

/** The start of a body that is not what was expected, for a message people can act on. */
function excerpt(body: string): string {
  const flat = body.replace(/\s+/g, ' ').trim();
  return flat.length > 120 ? `${flat.slice(0, 120)}…` : flat;
}

/** A string of the answer, shortened, for a message. */
function quoted(value: string | undefined): string {
  return value === undefined ? '(none)' : JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
}

/**
 * What one answer means: the Plant of a 200, or the error of anything else,
 * with the server's code when its body is the contract's Error body and
 * `unexpected-response` when it is not (a proxy's page, a future code).
 *
 * A 200 must carry the very plant that was `sent`: the contract answers a
 * create or its replay with the stored plant, and a stored plant with another
 * name or tag is a 409. Anything else (a hop that rewrites answers, a server
 * that answers for another request) is `plant-mismatch`. The Plant returned is
 * a fresh object with `name`, and `tag` when there is one, and nothing else:
 * fields a server adds (`id`, `__proto__`) never reach the caller.
 */
export function readAnswer(
  status: number,
  body: string,
  attempts: number,
  requestId: string | undefined,
  sent: Pick<NewPlant, 'name' | 'tag'>,
): Plant | PlantStoreError {
  const value = parsed(body);
  if (status === 200) {
    const plant = plantOf(value);
    if (plant !== undefined) {
      const { name, tag } = plant;
      if (name === sent.name && tag === sent.tag) return tag === undefined ? { name } : { name, tag };
      return new PlantStoreError({
        code: ErrorCode.PlantMismatch,
        status,
        attempts,
        requestId,
        message: `the server answered 200 with another plant than the one sent: name ${quoted(name)} and tag ${quoted(tag)} for name ${quoted(sent.name)} and tag ${quoted(sent.tag)}`,
      });
    }
    return new PlantStoreError({
      code: ErrorCode.UnexpectedResponse,
      status,
      attempts,
      requestId,
      message: `the server answered 200 without a Plant (a name and an optional tag): ${excerpt(body)}`,
    });
  }
  const retryable = RETRYABLE_STATUSES.has(status);
  if (isRecord(value) && typeof value['message'] === 'string' && isServerErrorCode(value['error'])) {
    return new PlantStoreError({ code: value['error'], status, retryable, attempts, requestId, message: value['message'] });
  }
  return new PlantStoreError({
    code: ErrorCode.UnexpectedResponse,
    status,
    retryable,
    attempts,
    requestId,
    message: `the server answered ${status} without a known Error body: ${excerpt(body) || '(empty body)'}`,
  });
}
