// Runs anywhere (no runtime API): a handler's own options (the features check theirs), checked once, and the settings every request reads.
import type { PlantStore } from '../domain/plant-store.ts';
import type { Authenticate } from './authenticate.ts';
import { errorResponse, PROTOCOL_ERRORS, type ProtocolErrorKind } from './error-response.ts';
import type { FeatureContext } from './feature.ts';
import { logError } from './log-error.ts';
import type { ErrorContext, ExchangeSettings, FindRoute, RequestHooks } from './plant-exchange.ts';

/** Default `maxBodyBytes`: 1 MiB. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
/** Default `storeTimeoutMs`: 5 s. */
export const DEFAULT_STORE_TIMEOUT_MS = 5_000;

/** The options of a handler that are not a feature's; `PlantHandlerOptions` adds the features'. */
export interface ExchangeOptions {
  /** Where plants live, e.g. `createMemoryStore()` from `@plant-store/store-memory`. */
  readonly store: PlantStore;
  /**
   * Accepts or rejects a bearer token; required, since no default may let
   * everyone in. Use `staticTokens` for a fixed list of tokens.
   */
  readonly authenticate: Authenticate;
  /** A path prefix the routes live under, e.g. `/api` serves `/api/plants`. Default `''`. */
  readonly basePath?: string;
  /** Largest request body accepted, in bytes; past it, 413 (code 1400). Default 1 MiB. */
  readonly maxBodyBytes?: number;
  /** Longest wait for the store per create; past it, 503 (code 1501). Default 5 s. */
  readonly storeTimeoutMs?: number;
  /**
   * Receives unexpected errors (a throwing verifier, a failing store) with
   * their details, which never reach the client. Default: `logError`,
   * the console. Pass `() => {}` to ignore them.
   */
  readonly onError?: (error: unknown, context: ErrorContext) => void;
  /**
   * Gives every answer an `x-request-id`: the request's `X-Request-Id` when it
   * is 1 to 128 characters of `A-Z a-z 0-9 + / = . _ : -`, else a new UUID.
   * It is also handed to `onError`. Default false.
   */
  readonly requestId?: boolean | undefined;
  /**
   * The refusals the HTTP server around the handler sends itself, before the
   * handler sees a request (`PROTOCOL_ERRORS`: 400 with code 1005, 408 with
   * 1402, 431 with 1403), for the served OpenAPI document to declare. It
   * changes no answer of the handler. `serve()` of `@plant-store/server` and
   * the standalone servers give all three. Default: none, since a handler
   * mounted in a host server does not know what the host answers.
   */
  readonly protocolErrors?: readonly ProtocolErrorKind[] | undefined;
}

/** {@link ExchangeOptions}, checked, with their defaults: what the features are built with, and the rest of the settings. */
export interface CheckedOptions extends FeatureContext {
  readonly authenticate: Authenticate;
  readonly maxBodyBytes: number;
  readonly onError: (error: unknown, context: ErrorContext) => void;
  readonly requestIds: boolean;
  readonly protocolErrors: readonly ProtocolErrorKind[];
}

/**
 * Checks a handler's own options, before its features' (`features.ts`, in
 * their order there), so that of several faults the same is always named.
 *
 * @param caller The function the user called (`createPlantHandler`, an
 *   adapter's factory), which every option error names.
 * @throws TypeError naming `caller` and the option at fault.
 * @example
 * const checked = checkOptions({ store, authenticate }, 'createPlantHandler');
 */
export function checkOptions(options: ExchangeOptions, caller: string): CheckedOptions {
  const { store, authenticate } = options;
  const basePath = basePathOption(caller, options.basePath ?? '');
  if (typeof store?.insertIfAbsent !== 'function') throw new TypeError(`${caller}: \`store\` must be a PlantStore`);
  if (typeof authenticate !== 'function') throw new TypeError(`${caller}: \`authenticate\` is required`);
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const timeoutMs = options.storeTimeoutMs ?? DEFAULT_STORE_TIMEOUT_MS;
  nonNegativeInteger(caller, 'maxBodyBytes', maxBodyBytes);
  nonNegativeInteger(caller, 'storeTimeoutMs', timeoutMs);
  if (options.requestId !== undefined && typeof options.requestId !== 'boolean') throw new TypeError(`${caller}: \`requestId\` must be a boolean`);
  const protocolErrors = protocolErrorsOption(caller, options.protocolErrors);
  return {
    caller,
    basePath,
    store,
    authenticate,
    createOptions: { timeoutMs },
    maxBodyBytes,
    onError: options.onError ?? logError,
    requestIds: options.requestId === true,
    protocolErrors,
  };
}

/**
 * The settings every request of one handler reads, from its checked options,
 * its routes and its features' per-request parts.
 *
 * @example
 * const settings = exchangeSettings(checked, routeFinder(basePath, document, [], []), undefined);
 */
export function exchangeSettings(checked: CheckedOptions, findRoute: FindRoute, hooks: RequestHooks | undefined): ExchangeSettings {
  const { store, authenticate, createOptions, maxBodyBytes, onError, requestIds } = checked;
  return {
    store,
    authenticate,
    createOptions,
    body: { maxBytes: maxBodyBytes, tooLarge: errorResponse('body-too-large', `body: larger than the limit of ${maxBodyBytes} bytes`) },
    onError,
    requestIds,
    findRoute,
    hooks,
  };
}

function nonNegativeInteger(caller: string, name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 0) throw new TypeError(`${caller}: \`${name}\` must be a non-negative integer`);
}

function basePathOption(caller: string, basePath: string): string {
  if (basePath === '' || basePath === '/') return '';
  if (!basePath.startsWith('/') || basePath.includes('?')) {
    throw new TypeError(`${caller}: \`basePath\` must start with "/" and hold no query`);
  }
  return basePath.endsWith('/') ? basePath.slice(0, -1) : basePath;
}

function protocolErrorsOption(caller: string, given: unknown): readonly ProtocolErrorKind[] {
  if (given === undefined) return [];
  if (!Array.isArray(given) || !given.every((kind) => typeof kind === 'string' && Object.hasOwn(PROTOCOL_ERRORS, kind))) {
    const kinds = Object.keys(PROTOCOL_ERRORS).map((kind) => JSON.stringify(kind));
    throw new TypeError(`${caller}: \`protocolErrors\` must be a list of ${kinds.join(', ')}`);
  }
  return Object.freeze([...new Set(given as ProtocolErrorKind[])]);
}
