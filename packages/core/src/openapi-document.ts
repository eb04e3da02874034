// Runs anywhere: the OpenAPI document of a mount (no runtime API), from its base and the features it has on.
import type { ErrorKind } from './domain/error-table.ts';
import { buildOpenApiDocument, type DocumentBase, type OpenApiDocument } from './exchange/openapi-document.ts';
import type { RoutesOf } from './exchange/feature.ts';
import FEATURES from './features.ts';

export type { OpenApiDocument } from './exchange/openapi-document.ts';

/**
 * What a handler serves beyond `POST /plants` and its document, and what the
 * server around it answers itself, for {@link createOpenApiDocument} to
 * declare: the document of a mount lists exactly what that mount can answer.
 */
export interface DocumentedRoutes extends DocumentBase, FeatureRoutes {}

/** The registered features' flags, each declared and documented in the feature's folder. */
type FeatureRoutes = RoutesOf<typeof FEATURES>;

/** The Error kinds only a feature answers: listed only where it is on. */
const OPTIONAL_KINDS: ReadonlySet<ErrorKind> = new Set(FEATURES.flatMap((feature) => ('document' in feature ? (feature.document.kinds ?? []) : [])));

/**
 * Builds the OpenAPI 3.1.0 document of exactly what one mount of the service
 * answers: the OpenAPI Plant Store interface (title, version, MIT license, global bearer
 * auth, `POST /plants` with NewPlant in and Plant out, its labels and
 * field meanings) plus every status the contract adds (docs/contract.md),
 * each with the Error codes it can carry, and the optional routes, CORS and
 * server refusals only where `routes` says the mount has them. The schemas
 * are generated from the same valibot schemas that validate requests, so the
 * two cannot drift.
 *
 * @param serverUrl Where the routes live, e.g. `/api`; the document's `servers`.
 * @param routes What the mount serves beyond `POST /plants` and the document; nothing by default.
 * @example
 * const document = createOpenApiDocument('/api', { health: true });
 * document.paths['/plants'].post.requestBody; // NewPlant, required
 */
export function createOpenApiDocument(serverUrl = '/', routes: DocumentedRoutes = {}): OpenApiDocument {
  const parts = FEATURES.flatMap((feature) =>
    'document' in feature && (routes as Readonly<Record<string, unknown>>)[feature.option] === true ? [feature.document] : [],
  );
  return buildOpenApiDocument(serverUrl, routes, parts, OPTIONAL_KINDS);
}
