import { ErrorCode, isServerErrorCode } from './error-code.ts';
import { parseJsonLosslessly } from './parse-json-losslessly.ts';
import type { Plant } from './plant.ts';
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

/** A 200 body as the contract defines it: `name`, and `tag` when present, both strings. */
function isPlant(value: unknown): value is Plant {
  return isRecord(value) && typeof value['name'] === 'string' && (value['tag'] === undefined || typeof value['tag'] === 'string');
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

/**
 * What one answer means: the Plant of a 200, or the error of anything else,
 * with the server's code when its body is the contract's Error body and
 * `unexpected-response` when it is not (a proxy's page, a future code).
 */
export function readAnswer(status: number, body: string, attempts: number, requestId?: string): Plant | PlantStoreError {
  const value = parsed(body);
  if (status === 200) {
    if (isPlant(value)) return value;
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
