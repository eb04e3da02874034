import { toJsonSchema, type ConversionConfig } from '@valibot/to-json-schema';
import type { GenericSchema } from 'valibot';
import { errorTable, type ErrorKind } from './error-table.ts';
import { ErrorSchema, NewPlantSchema, PlantSchema } from './schemas.ts';

/** An OpenAPI 3.1 document, as plain JSON data. */
export type OpenApiDocument = { readonly openapi: '3.1.0' } & Readonly<Record<string, unknown>>;

/** The optional routes a handler serves, for {@link createOpenApiDocument} to list. */
export interface DocumentedRoutes {
  /** `GET /healthz` and `GET /readyz` (the handler's `health` option). */
  readonly health?: boolean;
  /** `GET /docs` and `GET /docs/{file}` (the handler's `docs` option). */
  readonly docs?: boolean;
}

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

/** Adds the OpenAPI `format` that JSON Schema has no keyword for to one property. */
function withFormat(schema: Record<string, unknown>, property: string, format: string): Record<string, unknown> {
  const properties = schema['properties'] as Record<string, Record<string, unknown>>;
  return { ...schema, properties: { ...properties, [property]: { ...properties[property], format } } };
}

const REALM = 'Bearer realm="plant-store"';

/** Each error status: its name under `components.responses` and its description. */
const RESPONSES: Readonly<Record<number, readonly [name: string, description: string]>> = {
  // The seed labels its one error response "unexpected error".
  400: ['BadRequest', 'unexpected error'],
  401: ['Unauthorized', 'Unauthorized'],
  403: ['Forbidden', 'Forbidden: a CORS preflight from an origin that is not allowed'],
  404: ['NotFound', 'Not Found: the path is not a route'],
  405: ['MethodNotAllowed', 'Method Not Allowed on this path'],
  408: ['RequestTimeout', 'Request Timeout'],
  409: ['Conflict', 'Conflict'],
  413: ['PayloadTooLarge', 'Content Too Large'],
  415: ['UnsupportedMediaType', 'Unsupported Media Type'],
  431: ['RequestHeaderFieldsTooLarge', 'Request Header Fields Too Large'],
  500: ['InternalServerError', 'Internal Server Error'],
  503: ['ServiceUnavailable', 'Service Unavailable'],
  507: ['InsufficientStorage', 'Insufficient Storage'],
};

// Routing, CORS preflights, and the HTTP server itself for requests it cannot
// read, answer before any operation runs, so these belong to no operation.
const ROUTING_KINDS: readonly ErrorKind[] = [
  'not-found',
  'method-not-allowed',
  'origin-not-allowed',
  'malformed-request',
  'request-timeout',
  'headers-too-large',
];

function errorResponses(): Record<string, unknown> {
  const byStatus = new Map<number, ErrorKind[]>();
  for (const kind of Object.keys(errorTable) as ErrorKind[]) {
    const { status } = errorTable[kind];
    byStatus.set(status, [...(byStatus.get(status) ?? []), kind]);
  }
  const responses: Record<string, unknown> = {};
  for (const [status, kinds] of byStatus) {
    const lines = kinds.map((kind) => `\`${errorTable[kind].code}\`: ${errorTable[kind].when}`);
    const headers: Record<string, unknown> = {};
    if (status === 401) {
      headers['WWW-Authenticate'] = {
        description: `\`${REALM}\`, with \`error="invalid_token"\` added when a token was presented and rejected (RFC 6750).`,
        required: true,
        schema: { type: 'string', pattern: '^Bearer realm="plant-store"' },
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
            allOf: [{ $ref: '#/components/schemas/Error' }, { properties: { error: { enum: kinds.map((kind) => errorTable[kind].code) } } }],
          },
        },
      },
    };
  }
  return responses;
}

/** The statuses `POST /plants` itself can answer with an Error. */
function createErrorStatuses(): number[] {
  const statuses = new Set<number>();
  for (const kind of Object.keys(errorTable) as ErrorKind[]) {
    if (!ROUTING_KINDS.includes(kind)) statuses.add(errorTable[kind].status);
  }
  return [...statuses].sort((a, b) => a - b);
}

/**
 * Builds the OpenAPI 3.1.0 document of exactly what the service does: the
 * seed's contract (title, version, MIT license, global bearer auth, `POST
 * /plants` with NewPlant in and Plant out) plus every status the contract adds (docs/contract.md), each
 * with the Error codes it can carry. The schemas are generated from the same
 * valibot schemas that validate requests, so the two cannot drift.
 *
 * @param serverUrl Where the routes live, e.g. `/api`; the document's `servers`.
 * @param routes The optional routes the handler serves (health, docs); none by default.
 * @example
 * const document = createOpenApiDocument('/api');
 * document.paths['/plants'].post.requestBody; // NewPlant, required
 */
export function createOpenApiDocument(serverUrl = '/', routes: DocumentedRoutes = {}): OpenApiDocument {
  const errorRefs = Object.fromEntries(createErrorStatuses().map((status) => [String(status), { $ref: `#/components/responses/${RESPONSES[status]![0]}` }]));
  return {
    openapi: '3.1.0',
    info: {
      title: 'OpenAPI Plant Store',
      version: '1.0.0',
      description: [
        'A sample plant store interface: one operation, which creates a plant.',
        '',
        'Every non-200 answer carries the Error body; `error` is a stable code. A path that is not a route gets 404 (code 1200, `#/components/responses/NotFound`); another method on a known path gets 405 with `Allow` (code 1201, `#/components/responses/MethodNotAllowed`); where CORS is configured, a preflight from an origin that is not allowed gets 403 (code 1102, `#/components/responses/Forbidden`). The standalone Node, Deno and workerd servers answer requests they cannot read with 400 (code 1005, `#/components/responses/BadRequest`), 408 (code 1402, `#/components/responses/RequestTimeout`) or 431 (code 1403, `#/components/responses/RequestHeaderFieldsTooLarge`).',
      ].join('\n'),
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: serverUrl }],
    security: [{ bearerAuth: [] }],
    paths: {
      '/plants': {
        post: {
          operationId: 'createPlant',
          summary: 'Create a plant',
          description:
            'Creates a new plant in the store. Idempotent per id: the same id with the same name and tag answers 200 again and changes nothing; the same id with another name or tag is 409 and the stored plant stays.',
          requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/NewPlant' } } } },
          responses: {
            '200': { description: 'plant response', content: { 'application/json': { schema: { $ref: '#/components/schemas/Plant' } } } },
            ...errorRefs,
          },
        },
      },
      '/openapi.json': {
        get: {
          operationId: 'getOpenApiDocument',
          summary: 'This document',
          security: [],
          responses: {
            '200': { description: 'The OpenAPI document of this service.', content: { 'application/json': { schema: { type: 'object' } } } },
          },
        },
      },
      ...(routes.health === true ? HEALTH_PATHS : {}),
      ...(routes.docs === true ? DOCS_PATHS : {}),
    },
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } },
      schemas: {
        Plant: schemaOf(PlantSchema),
        NewPlant: schemaOf(NewPlantSchema),
        Error: withFormat(schemaOf(ErrorSchema), 'error', 'int32'),
      },
      responses: errorResponses(),
    },
  };
}

const statusBody = (value: string) => ({
  'application/json': { schema: { type: 'object', required: ['status'], properties: { status: { const: value } } } },
});

const HEALTH_PATHS = {
  '/healthz': {
    get: {
      operationId: 'checkLiveness',
      summary: 'Liveness',
      description: 'Answers 200 while the process serves, also while it drains for shutdown. No authentication.',
      security: [],
      responses: { '200': { description: 'The process is alive.', content: statusBody('ok') } },
    },
  },
  '/readyz': {
    get: {
      operationId: 'checkReadiness',
      summary: 'Readiness',
      description:
        'Answers 200 when the store answers; 503 while the server drains for shutdown, or when the store fails or does not answer in time. No authentication.',
      security: [],
      responses: {
        '200': { description: 'The service can take creates.', content: statusBody('ready') },
        '503': { $ref: '#/components/responses/ServiceUnavailable' },
      },
    },
  },
};

const DOCS_PATHS = {
  '/docs': {
    get: {
      operationId: 'getDocsPage',
      summary: 'API reference page',
      description: 'An HTML page that shows this document; it loads its files from `/docs/{file}` and nothing from any other origin. No authentication.',
      security: [],
      responses: { '200': { description: 'The page.', content: { 'text/html': { schema: { type: 'string' } } } } },
    },
  },
  '/docs/{file}': {
    get: {
      operationId: 'getDocsFile',
      summary: 'A file of the API reference page',
      security: [],
      parameters: [{ name: 'file', in: 'path', required: true, schema: { type: 'string' } }],
      responses: {
        '200': { description: 'The file, with its own content type.', content: { '*/*': { schema: { type: 'string' } } } },
        '404': { $ref: '#/components/responses/NotFound' },
      },
    },
  },
};
