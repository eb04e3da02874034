// Runs anywhere (no runtime API): the one interface through which an optional feature plugs into
// the responder, and what the enabled features become once resolved.
import type { CreatePlantOptions } from '../domain/create-plant.ts';
import type { ErrorKind } from '../domain/error-table.ts';
import type { PlantStore } from '../domain/plant-store.ts';
import type { PlantResponse } from './http-types.ts';
import type { RequestHooks, Route, Watch } from './plant-exchange.ts';

/** What a feature is given to build its parts with, beside its own option. */
export interface FeatureContext {
  /** The function the user called, which every option error names. */
  readonly caller: string;
  /** `''` or the base path, a leading `/` without a trailing one. */
  readonly basePath: string;
  readonly store: PlantStore;
  /** What each create is given: its store timeout, in ms. */
  readonly createOptions: Required<CreatePlantOptions>;
}

/**
 * A feature's part of the OpenAPI document, declared where the feature is
 * on: the paths it serves (after the base path), and the Error kinds it
 * answers, which the document lists only then.
 */
export interface DocumentPart {
  readonly paths?: Readonly<Record<string, unknown>>;
  readonly kinds?: readonly ErrorKind[];
}

/** What one enabled feature brings to a handler, built once from its option; every part is optional. */
export interface FeatureParts {
  /** Routes it serves, by their path after the base path (`/healthz`). */
  readonly routes?: readonly (readonly [path: string, route: Route])[];
  /** A path prefix it owns whole (after the base path, ending in `/`), and the route of what follows it. */
  readonly prefix?: readonly [path: string, find: (rest: string) => Route];
  /** Watches each request from its arrival: metrics, spans. */
  readonly watch?: RequestHooks['watch'][number];
  /** The answer to a CORS preflight, or undefined when the request is none. */
  readonly preflight?: RequestHooks['preflight'][number];
  /** Headers every other answer to the request gets. */
  readonly headers?: RequestHooks['headers'][number];
  /** Admission before any step: undefined when not its concern, a refusal, or the Watch that gives the place back. */
  readonly admit?: RequestHooks['admit'][number];
  /** Once a create's token is accepted, before its body is read: a refusal, or undefined. */
  readonly accepted?: RequestHooks['accepted'][number];
}

/**
 * An optional feature of the handler: the option that turns it on, how it
 * builds its parts from that option (checking it), and its part of the
 * OpenAPI document. Registered once, in the core's `features.ts`.
 *
 * `Options` is its member of `PlantHandlerOptions` (`{ readonly cors?: … }`, with its
 * documentation) and `Routes` its flag of `DocumentedRoutes` when it documents anything:
 * both types are merged from the registry, so the feature declares them in its own folder.
 */
export interface Feature<Option extends string = string, Options extends object = object, Routes extends object = object> {
  /** Its option of `PlantHandlerOptions`, and its flag of `DocumentedRoutes` when it documents anything. */
  readonly option: Option;
  /**
   * Never set: the types of its option and its flag, carried for {@link OptionsOf} and
   * {@link RoutesOf}, which merge them over the registered features.
   */
  readonly types?: { readonly options: Options; readonly routes: Routes };
  /** Its part of the OpenAPI document while it is on. */
  readonly document?: DocumentPart;
  /**
   * Its parts for one handler, from its option as given (possibly
   * undefined); undefined when the option leaves it off.
   *
   * @throws TypeError naming `context.caller` and the option at fault.
   */
  resolve(given: unknown, context: FeatureContext): FeatureParts | undefined;
}

type Merged<Union> = (Union extends unknown ? (merged: Union) => void : never) extends (merged: infer All) => void ? All : never;

/** The members of the handler's options that `features` add, each as its feature declares and documents it. */
export type OptionsOf<Features extends readonly Feature[]> = Merged<NonNullable<Features[number]['types']>['options']>;

/** The flags of `DocumentedRoutes` that `features` add, each as its feature declares and documents it. */
export type RoutesOf<Features extends readonly Feature[]> = Merged<NonNullable<Features[number]['types']>['routes']>;

/**
 * The per-request parts of the enabled features, gathered into plain arrays
 * in the features' order; undefined when none has any, so that a request to
 * a handler without them pays for none.
 *
 * @example
 * const hooks = requestHooks([metricsParts, corsParts]);
 */
export function requestHooks(parts: readonly FeatureParts[]): RequestHooks | undefined {
  const hooks = { watch: [], preflight: [], headers: [], admit: [], accepted: [] } as { [K in keyof RequestHooks]: RequestHooks[K][number][] };
  let any = false;
  for (const part of parts) {
    for (const name of ['watch', 'preflight', 'headers', 'admit', 'accepted'] as const) {
      const hook = part[name];
      if (hook === undefined) continue;
      (hooks[name] as unknown[]).push(hook);
      any = true;
    }
  }
  return any ? hooks : undefined;
}

/** Two watches as one: each told everything, in order; the first trace id there is. */
class BothWatches implements Watch {
  constructor(
    private readonly first: Watch,
    private readonly second: Watch,
  ) {}

  get traceId(): string | undefined {
    return this.first.traceId ?? this.second.traceId;
  }

  storeStarted(): void {
    this.first.storeStarted();
    this.second.storeStarted();
  }

  storeEnded(created: Parameters<Watch['storeEnded']>[0]): void {
    this.first.storeEnded(created);
    this.second.storeEnded(created);
  }

  answered(response: PlantResponse): void {
    this.first.answered(response);
    this.second.answered(response);
  }
}

/** `added` beside what already watches a request, if anything does. */
export function joinWatches(watching: Watch | undefined, added: Watch): Watch {
  return watching === undefined ? added : new BothWatches(watching, added);
}

/** Whether an admission's verdict is the Watch of an admitted request rather than a refusal. */
export function isWatch(verdict: PlantResponse | Watch): verdict is Watch {
  return typeof (verdict as Partial<Watch>).answered === 'function';
}
