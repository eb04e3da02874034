// Runs anywhere (no runtime API): the `overload` option: new requests refused at once while the handler is past its bounds.
import type { Feature } from '../../exchange/feature.ts';
import type { Watch } from '../../exchange/plant-exchange.ts';
import { createOverloadGate, type OverloadGate, type OverloadOptions } from './overload-gate.ts';

/** The handler's `overload` option, as `PlantHandlerOptions` has it. */
export interface OverloadOption {
  /**
   * Refuses new requests at once with 503 (code 1503) and `Retry-After`
   * while too many are in flight or the event loop is behind (docs/contract.md,
   * "Overload and rate limits"); admitted requests finish, and `/healthz` and
   * `/metrics` are never refused.
   * Options, or a gate from `createOverloadGate` shared by several handlers
   * of one process. Default: off, and nothing is counted.
   */
  readonly overload?: OverloadOptions | OverloadGate | undefined;
}

/** The `overload` flag of `DocumentedRoutes`. */
export interface OverloadRoutes {
  /** The busy refusal, 503 (1503) with `Retry-After` (the handler's `overload` option). */
  readonly overload?: boolean;
}

/**
 * The `overload` option (bounds, or a gate from `createOverloadGate` to
 * share): every route the handler serves but those that must stay answered
 * under load (`/healthz`, `/metrics`) is refused with 503 (1503) and
 * `Retry-After` while the requests in flight or the event loop's delay are
 * past their bounds (docs/contract.md, "Overload and rate limits"); not
 * while draining, whose 503 closes the connection.
 */
export const overloadFeature: Feature<'overload', OverloadOption, OverloadRoutes> = {
  option: 'overload',
  document: { kinds: ['overloaded'] },
  resolve(given, { caller }) {
    if (given === undefined) return undefined;
    const gate = overloadGate(caller, given as OverloadOptions | OverloadGate);
    // Both bounds 0: no protection, so nothing is counted (docs/operations.md).
    if (gate.bounded === false) return undefined;
    // An admitted request's place, given back as it is answered: one object for every request.
    const leave: Watch = { traceId: undefined, storeStarted() {}, storeEnded() {}, answered: () => gate.leave() };
    return {
      admit(request, route) {
        if (route === undefined || route.pastOverload === true || request.draining === true) return undefined;
        return gate.enter() ?? leave;
      },
    };
  },
};

/** A gate given (recognised by its methods, so that one from another copy of the core is shared too), or one built from options. */
function overloadGate(caller: string, given: OverloadOptions | OverloadGate): OverloadGate {
  const gate = given as Partial<OverloadGate>;
  if (typeof gate.enter === 'function' && typeof gate.leave === 'function' && typeof gate.busy === 'function') return given as OverloadGate;
  return createOverloadGate(given as OverloadOptions, caller);
}
