// Runs wherever the client runs: browsers, Node 20+, Bun, Deno and Workers (an Error subclass, no runtime API).
import type { ErrorCode } from './error-code.ts';

/** What a {@link PlantStoreError} is made from. */
export interface PlantStoreErrorInit {
  readonly code: ErrorCode;
  readonly message: string;
  /** The HTTP status, when an answer arrived. */
  readonly status?: number | undefined;
  /** Whether the same create may be sent again later (see {@link PlantStoreError.retryable}). */
  readonly retryable?: boolean | undefined;
  /** How many requests were sent; 0 when refused before sending. */
  readonly attempts?: number | undefined;
  /** The answer's `x-request-id`, when the server sends one. */
  readonly requestId?: string | undefined;
  readonly cause?: unknown;
}

/**
 * Why a create did not answer a Plant. `code` is the contract's numeric
 * `error` code when the server answered with an Error body, else one of the
 * client's own string codes (`'network'`, `'timeout'`, `'aborted'`,
 * `'invalid-input'`, `'unexpected-response'`, `'redirected'`,
 * `'plant-mismatch'`, `'answer-too-large'`); see {@link ErrorCode}.
 *
 * @example
 * try {
 *   await client.createPlant({ id: 7n, name: 'Fern' });
 * } catch (error) {
 *   if (error instanceof PlantStoreError && error.code === ErrorCode.Conflict) console.log('taken');
 *   else throw error;
 * }
 */
export class PlantStoreError extends Error {
  override readonly name = 'PlantStoreError';
  /** The server's Error code, or the client's own; branch on this, not on `message`. */
  readonly code: ErrorCode;
  /** The HTTP status of the last answer; `undefined` when none arrived (network, timeout, aborted, invalid input) or a browser hid it (an opaque redirect). */
  readonly status: number | undefined;
  /**
   * True for failures that say nothing about the plant (network, timeout, 408,
   * 429, 502, 503, 504): the create may or may not be stored, and sending the
   * same id, name and tag again later is safe. Already retried as configured.
   */
  readonly retryable: boolean;
  /** Requests sent for this create, retries included; 0 when refused before sending. */
  readonly attempts: number;
  /** The last answer's `x-request-id` (servers with the `requestId` option), to find the request in the server's log. */
  readonly requestId: string | undefined;

  /** Builds an error; `message` is for people, `code` for programs. */
  constructor(init: PlantStoreErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.code = init.code;
    this.status = init.status;
    this.retryable = init.retryable ?? false;
    this.attempts = init.attempts ?? 0;
    this.requestId = init.requestId;
  }
}
