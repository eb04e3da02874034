// Runs anywhere: builds the OpenAPI document as plain data (no runtime API) from its base and the
// enabled features' parts, for the handler to serve and for the build to ship as @plant-store/core/openapi.json.
import { toJsonSchema, type ConversionConfig } from '@valibot/to-json-schema';
import type { GenericSchema } from 'valibot';
import type { AuthenticateDescription } from './authenticate.ts';
import { PROTOCOL_ERRORS, REALM, type ProtocolErrorKind } from './error-response.ts';
import { errorTable, type ErrorKind } from '../domain/error-table.ts';
import type { DocumentPart } from './feature.ts';
import { ErrorSchema, NewPlantSchema, PlantSchema } from '../domain/schemas.ts';

/** An OpenAPI 3.1 document, as plain data. */
export type OpenApiDocument = { readonly openapi: '3.1.0' } & Readonly<Record<string, unknown>>;

/** What every document declares according to its handler's own options, beside the features' parts. */
export interface DocumentBase {
  /**
   * The refusals the HTTP server around the handler sends itself (the
   * handler's `protocolErrors` option): 400 (1005), 408 (1402), 431 (1403).
   * None by default: a handler mounted in a host server cannot know them.
   */
  readonly protocolErrors?: readonly ProtocolErrorKind[];
  /**
   * What the verifier says of itself (its `describes`): the `bearerFormat` of
   * `bearerAuth`, and its refusals beyond 401: 403 (1103) for a missing scope,
   * 503 (1104) when it cannot check a token now.
   */
  readonly verifier?: AuthenticateDescription | undefined;
}

const REFUSAL_KINDS = { 'insufficient-scope': 'insufficient-scope', unavailable: 'verifier-unavailable' } as const satisfies Record<
  NonNullable<AuthenticateDescription['refusals']>[number],
  ErrorKind
>;

const conversion: ConversionConfig = {
  target: 'draft-2020-12',
  // JSON numbers cannot hold every int64 exactly, so the range is stated by `format`.
  overrideSchema: ({ valibotSchema }) => (valibotSchema.type === 'bigint' ? { type: 'integer', format: 'int64' } : undefined),
  overrideAction: ({ valibotAction, jsonSchema }) => (typeof (valibotAction as { requirement?: unknown }).requirement === 'bigint' ? jsonSchema : undefined),
};

function schemaOf(schema: GenericSchema): Record<string, unknown> {
  const { $schema: _draft, ...json } = toJsonSchema(schema, conversion) as Record<string, unknown>;
  return json;
}

/**
 * Adds to the named properties of a generated schema what JSON Schema cannot
 * say from the valibot schema: an OpenAPI `format`, and the interface's meaning of
 * each field as its `description`.
 */
function withProperties(schema: Record<string, unknown>, added: Readonly<Record<string, Readonly<Record<string, string>>>>): Record<string, unknown> {
  const properties = schema['properties'] as Record<string, Record<string, unknown>>;
  const merged = { ...properties };
  for (const [name, extra] of Object.entries(added)) merged[name] = { ...properties[name], ...extra };
  return { ...schema, properties: merged };
}

/** The interface's meaning of each field, word for word; `id` adds how to keep its digits. */
const FIELD_DESCRIPTIONS = {
  name: 'The name of the plant',
  tag: 'Tag that specifies the type',
  id: [
    'Identification number of the plant.',
    '',
    'An int64, from -9223372036854775808 to 9223372036854775807, whose digits are exact: the service reads the id from its digits and never rounds it, so 9007199254740993 and 9007199254740992 are two plants.',
    '',
    'A JavaScript number holds integers exactly only up to 2^53 (9007199254740992). A client that parses JSON into JavaScript numbers, as the clients generated from this document by openapi-typescript with openapi-fetch, hey-api or orval do, holds 9007199254740993 as 9007199254740992 and creates another plant. Above 2^53, keep ids as exact digits (a bigint, or a string of digits written into the JSON as a number) and parse JSON with a lossless parser, or use `@plant-store/client`, which does both.',
  ].join('\n'),
  error: 'Numeric error value',
  message: 'Error message text',
} as const;

/** The example of the request body and of its answer, which "Try it out" of the docs page starts from. */
const NEW_PLANT_EXAMPLE = { id: 10, name: 'Monstera', tag: 'tropical' };
const PLANT_EXAMPLE = { name: 'Monstera', tag: 'tropical' };

/** Each error status: its name under `components.responses` and its description. */
const RESPONSES: Readonly<Record<number, readonly [name: string, description: string]>> = {
  // The interface labels its one error response "unexpected error".
  400: ['BadRequest', 'unexpected error'],
  401: ['Unauthorized', 'Unauthorized'],
  403: ['Forbidden', 'Forbidden'],
  404: ['NotFound', 'Not Found: the path is not a route'],
  405: ['MethodNotAllowed', 'Method Not Allowed on this path'],
  408: ['RequestTimeout', 'Request Timeout'],
  409: ['Conflict', 'Conflict'],
  413: ['PayloadTooLarge', 'Content Too Large'],
  415: ['UnsupportedMediaType', 'Unsupported Media Type'],
  429: ['TooManyRequests', 'Too Many Requests'],
  431: ['RequestHeaderFieldsTooLarge', 'Request Header Fields Too Large'],
  500: ['InternalServerError', 'Internal Server Error'],
  503: ['ServiceUnavailable', 'Service Unavailable'],
  507: ['InsufficientStorage', 'Insufficient Storage'],
};

// Routing, CORS preflights, and the HTTP server for a request it cannot read
// (not HTTP, headers too large), answer before any operation runs, so these
// belong to no operation. A request timeout can also pass while a create's
// body is on its way: that one is an answer of POST /plants.
const BEFORE_ANY_OPERATION: readonly ErrorKind[] = ['not-found', 'method-not-allowed', 'origin-not-allowed', 'malformed-request', 'headers-too-large'];

/**
 * The error kinds a mount can answer: a feature's (`optional`) only where
 * an enabled part declares it, the server's own refusals and the verifier's
 * only where they are given.
 */
function answeredKinds(base: DocumentBase, parts: readonly DocumentPart[], optional: ReadonlySet<ErrorKind>): ErrorKind[] {
  const protocolErrors = base.protocolErrors ?? [];
  const refusals: readonly ErrorKind[] = (base.verifier?.refusals ?? []).map((refusal) => REFUSAL_KINDS[refusal]);
  const enabled = new Set(parts.flatMap((part) => part.kinds ?? []));
  return (Object.keys(errorTable) as ErrorKind[]).filter((kind) => {
    if (optional.has(kind)) return enabled.has(kind);
    if (kind === 'insufficient-scope' || kind === 'verifier-unavailable') return refusals.includes(kind);
    if (kind in PROTOCOL_ERRORS) return (protocolErrors as readonly string[]).includes(kind);
    return true;
  });
}

function errorResponses(kinds: readonly ErrorKind[]): Record<string, unknown> {
  const byStatus = new Map<number, ErrorKind[]>();
  for (const kind of kinds) {
    const { status } = errorTable[kind];
    byStatus.set(status, [...(byStatus.get(status) ?? []), kind]);
  }
  const responses: Record<string, unknown> = {};
  for (const [status, ofStatus] of [...byStatus].sort(([a], [b]) => a - b)) {
    const lines = ofStatus.map((kind) => `\`${errorTable[kind].code}\`: ${errorTable[kind].when}`);
    const headers: Record<string, unknown> = {};
    if (status === 401) {
      headers['WWW-Authenticate'] = {
        description: `\`${REALM}\`, with \`error="invalid_token"\` added when a token was presented and rejected (RFC 6750).`,
        required: true,
        schema: { type: 'string', pattern: '^Bearer realm="plant-store"' },
      };
    }
    if (ofStatus.includes('insufficient-scope')) {
      headers['WWW-Authenticate'] = {
        description: `With code 1103: \`${REALM}, error="insufficient_scope", scope="<the required scope>"\` (RFC 6750).`,
        required: false,
        schema: { type: 'string', pattern: '^Bearer realm="plant-store"' },
      };
    }
    if (ofStatus.includes('verifier-unavailable')) {
      headers['Retry-After'] = {
        description: 'With code 1104: seconds to wait before sending the request again.',
        required: false,
        schema: { type: 'integer', minimum: 1 },
      };
    }
    if (status === 429) {
      headers['Retry-After'] = { description: 'Seconds until the token may send again.', required: true, schema: { type: 'integer', minimum: 1 } };
    }
    if (ofStatus.includes('overloaded')) {
      const before = headers['Retry-After'] as { description: string } | undefined;
      const description = 'With code 1503: seconds to wait before sending the request again.';
      headers['Retry-After'] = {
        description: before === undefined ? description : `${before.description} ${description}`,
        required: false,
        schema: { type: 'integer', minimum: 1 },
      };
    }
    if (status === 429) {
      headers['RateLimit-Policy'] = {
        description: 'The per-token quota (IETF draft-ietf-httpapi-ratelimit-headers), e.g. `"per-token";q=100;w=60`.',
        required: true,
        schema: { type: 'string' },
      };
      headers['RateLimit'] = {
        description: 'What is left of the quota and when it resets, in seconds, e.g. `"per-token";r=0;t=17`.',
        required: true,
        schema: { type: 'string' },
      };
    }
    if (status === 405) {
      headers['Allow'] = { description: 'The methods the path allows.', required: true, schema: { type: 'string' } };
    }
    const [name, description] = RESPONSES[status]!;
    responses[name] = {
      description: `${description}. Error codes: ${lines.join('; ')}.`,
      ...(Object.keys(headers).length > 0 ? { headers } : {}),
      content: {
        'application/json': {
          schema: {
            allOf: [{ $ref: '#/components/schemas/Error' }, { properties: { error: { enum: ofStatus.map((kind) => errorTable[kind].code) } } }],
          },
        },
      },
    };
  }
  return responses;
}

/**
 * A reference to the shared response of an error status, for a feature's paths.
 *
 * @example
 * const responses = { '503': errorRef(503) };
 */
export function errorRef(status: number): { $ref: string } {
  return { $ref: `#/components/responses/${RESPONSES[status]![0]}` };
}

/** The statuses `POST /plants` itself can answer with an Error. */
function createErrorStatuses(kinds: readonly ErrorKind[]): number[] {
  const statuses = new Set<number>();
  for (const kind of kinds) if (!BEFORE_ANY_OPERATION.includes(kind)) statuses.add(errorTable[kind].status);
  return [...statuses].sort((a, b) => a - b);
}

/** The answers that belong to no operation, in words: the intro of the document. */
function describeOtherAnswers(kinds: readonly ErrorKind[]): string {
  const answer = (kind: ErrorKind) => `${errorTable[kind].status} (code ${errorTable[kind].code})`;
  const has = (kind: ErrorKind) => kinds.includes(kind);
  const sentences = [
    `A path that is not a route gets ${answer('not-found')}; another method on a route gets ${answer('method-not-allowed')}, with \`Allow\` naming the methods it takes.`,
  ];
  if (has('origin-not-allowed')) sentences.push(`A CORS preflight from an origin that is not allowed gets ${answer('origin-not-allowed')}.`);
  const refusals = [
    has('malformed-request') ? `${answer('malformed-request')} for one that is not valid HTTP` : undefined,
    has('request-timeout') ? `${answer('request-timeout')} for one not received in time` : undefined,
    has('headers-too-large') ? `${answer('headers-too-large')} for headers that are too large` : undefined,
  ].filter((part) => part !== undefined);
  if (refusals.length > 0) sentences.push(`This server refuses a request it cannot read, and closes the connection: ${refusals.join(', ')}.`);
  return sentences.join(' ');
}

/**
 * Builds the OpenAPI document of a mount: `POST /plants` with its
 * NewPlant, Plant and Error schemas and every status it can answer, each
 * with the Error codes it can carry, `GET /openapi.json`, and the enabled
 * features' `parts` (their paths, and their Error kinds, which `optional`
 * names all of, so that each is listed only where its feature is on). The
 * schemas are generated from the same valibot schemas that validate
 * requests, so the two cannot drift.
 *
 * @param serverUrl Where the routes live, e.g. `/api`; the document's `servers`.
 * @example
 * const document = buildOpenApiDocument('/api', {}, [], new Set());
 * document.paths['/plants'].post.requestBody; // NewPlant, required
 */
export function buildOpenApiDocument(serverUrl: string, base: DocumentBase, parts: readonly DocumentPart[], optional: ReadonlySet<ErrorKind>): OpenApiDocument {
  const kinds = answeredKinds(base, parts, optional);
  return {
    openapi: '3.1.0',
    info: documentInfo(kinds),
    servers: [{ url: serverUrl }],
    security: [{ bearerAuth: [] }],
    paths: {
      '/plants': { post: createOperation(kinds) },
      '/openapi.json': {
        get: {
          operationId: 'getOpenApiDocument',
          summary: 'This document',
          description: 'No authentication. 503 while the server shuts down.',
          security: [],
          responses: {
            '200': { description: 'The OpenAPI document of this service.', content: { 'application/json': { schema: { type: 'object' } } } },
            '503': errorRef(503),
          },
        },
      },
      ...Object.assign({}, ...parts.map((part) => part.paths ?? {})),
    },
    components: {
      securitySchemes: { bearerAuth: bearerScheme(base.verifier?.bearerFormat) },
      schemas: schemas(),
      responses: errorResponses(kinds),
    },
  };
}

/** The document's `info`: the interface's title, version and license, and what every answer shares. */
function documentInfo(kinds: readonly ErrorKind[]): Record<string, unknown> {
  return {
    title: 'OpenAPI Plant Store',
    version: '1.0.0',
    description: [
      'A sample plant store interface: one operation, which creates a plant.',
      '',
      'Every answer other than 200 carries the Error body: `error` is a stable code to branch on, `message` is for people. Each response lists the codes it can carry.',
      '',
      describeOtherAnswers(kinds),
      '',
      'Every GET route also answers HEAD, with the same status and headers and no body.',
      '',
      'Ids are int64 and exact, beyond what a JavaScript number holds: see `id` in NewPlant before using a generated client.',
    ].join('\n'),
    license: { name: 'MIT', identifier: 'MIT' },
  };
}

/** `POST /plants`: NewPlant in, Plant out, and a reference to each error status it can answer. */
function createOperation(kinds: readonly ErrorKind[]) {
  const errorRefs = Object.fromEntries(createErrorStatuses(kinds).map((status) => [String(status), errorRef(status)]));
  return {
    operationId: 'createPlant',
    summary: 'Create a plant',
    description: [
      'Creates a new plant in the store.',
      '',
      'The id is the idempotency key of a create: the same id with the same name and tag answers 200 again and changes nothing, so a create whose answer was lost can be sent again; the same id with another name or tag is 409 and the stored plant stays. An `Idempotency-Key` header is accepted and ignored.',
    ].join('\n'),
    requestBody: {
      required: true,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/NewPlant' }, example: NEW_PLANT_EXAMPLE } },
    },
    responses: {
      // The interface labels its success response "Plant response".
      '200': {
        description: 'Plant response',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Plant' }, example: PLANT_EXAMPLE } },
      },
      ...errorRefs,
    },
  };
}

/** The document's schemas, from the valibot schemas that validate requests; new objects for each document, which its caller may change. */
function schemas(): Record<string, unknown> {
  return {
    Plant: withProperties(schemaOf(PlantSchema), {
      name: { description: FIELD_DESCRIPTIONS.name },
      tag: { description: FIELD_DESCRIPTIONS.tag },
    }),
    NewPlant: withProperties(schemaOf(NewPlantSchema), {
      id: { description: FIELD_DESCRIPTIONS.id },
      name: { description: FIELD_DESCRIPTIONS.name },
      tag: { description: FIELD_DESCRIPTIONS.tag },
    }),
    Error: withProperties(schemaOf(ErrorSchema), {
      error: { format: 'int32', description: FIELD_DESCRIPTIONS.error },
      message: { description: FIELD_DESCRIPTIONS.message },
    }),
  };
}

function bearerScheme(bearerFormat: string | undefined): Record<string, string> {
  return bearerFormat === undefined ? { type: 'http', scheme: 'bearer' } : { type: 'http', scheme: 'bearer', bearerFormat };
}
