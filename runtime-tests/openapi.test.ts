// Runs in Node (vitest): the OpenAPI document, as shipped, served and as each mount serves it, against
// the seed, @redocly/cli, an OpenAPI 3.1 validator, the error table, the parity list and Prism's proxy.
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { serve, type RunningServer } from '@plant-store/server';
import { createOpenApiDocument, errorTable, PROTOCOL_ERRORS, staticTokens, type ProtocolErrorKind } from '@plant-store/core';
import { CONFORMANCE_TOKEN, dereference, send } from '@plant-store/testing';
import { createMemoryStore } from '@plant-store/store-memory';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REQUESTS } from './parity-requests.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(import.meta.url);
const STATIC_DOCUMENT = require.resolve('@plant-store/core/openapi.json');
const document = JSON.parse(readFileSync(STATIC_DOCUMENT, 'utf8')) as Record<string, unknown>;
type Json = Record<string, unknown>;
const PROTOCOL_ERROR_KINDS = Object.keys(PROTOCOL_ERRORS) as ProtocolErrorKind[];
/** The document of the fullest mount: a standalone server with every option on. */
const fullest = createOpenApiDocument('/', {
  health: true,
  docs: true,
  cors: true,
  protocolErrors: PROTOCOL_ERROR_KINDS,
  overload: true,
  rateLimit: true,
  // A JWT verifier with a required scope (@plant-store/auth-jwt): 403 (1103) and 503 (1104) on POST /plants.
  verifier: { bearerFormat: 'JWT', refusals: ['insufficient-scope', 'unavailable'] },
}) as Json;

/**
 * Statuses answered by routing, by a CORS preflight or by the HTTP server for
 * a request it cannot read, never by an operation. (408 is also an answer of
 * POST /plants, whose body may be too slow.)
 */
const BEFORE_ANY_OPERATION = new Set([403, 404, 405, 431]);
/**
 * Statuses only the standalone Node server produces (its HTTP parser and
 * timers), so they are not in the parity list; where each is produced.
 */
const PRODUCED_ELSEWHERE: Readonly<Record<number, string>> = {
  408: 'packages/adapter-node/src/slow-clients.test.ts',
  431: 'packages/adapter-node/src/malformed-http.test.ts',
  429: 'runtime-tests/overload.test.ts',
};

/**
 * The seed's contract as a matcher: a `description` (a label or a field's
 * meaning) must begin with the seed's words, which the document may go on from
 * with a full stop or a new line, as `id`'s does with how to keep its digits.
 */
function seedMatcher(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(seedMatcher);
  if (node === null || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node).map(([key, value]) => [
      key,
      key === 'description' && typeof value === 'string'
        ? expect.stringMatching(new RegExp(`^${value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?:$|[.\n])`))
        : seedMatcher(value),
    ]),
  );
}

/** Folds `allOf` into one schema, as a reader of the contract would. */
function mergeAllOf(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(mergeAllOf);
  if (node === null || typeof node !== 'object') return node;
  const { allOf, ...rest } = node as Json;
  let merged: Json = Object.fromEntries(Object.entries(rest).map(([key, value]) => [key, mergeAllOf(value)]));
  for (const part of (allOf ?? []) as Json[]) {
    const resolved = mergeAllOf(part) as Json;
    const properties = { ...(merged['properties'] as Json) };
    for (const [name, schema] of Object.entries((resolved['properties'] ?? {}) as Json))
      properties[name] = { ...(properties[name] as Json), ...(schema as Json) };
    const required = [...new Set([...((merged['required'] ?? []) as string[]), ...((resolved['required'] ?? []) as string[])])];
    merged = { ...merged, ...resolved, properties, ...(required.length > 0 ? { required } : {}) };
  }
  return merged;
}

describe('the OpenAPI document', () => {
  let running: RunningServer;
  beforeAll(async () => {
    running = await serve({ store: createMemoryStore(), authenticate: staticTokens([CONFORMANCE_TOKEN]), port: 0, accessLog: false });
  });
  afterAll(() => running.close());

  it('is the same whether exported from core or shipped as a file; serve() adds the refusals it sends itself', async () => {
    expect(createOpenApiDocument()).toEqual(document);
    const served = await send(running.url, { method: 'GET', path: '/openapi.json' });
    expect(JSON.parse(served.body)).toEqual(createOpenApiDocument('/', { protocolErrors: PROTOCOL_ERROR_KINDS }));
  });

  describe.each([
    ['the shipped document (a mounted handler, no options)', document],
    ['the fullest document (a standalone server, every option on)', fullest],
  ])('%s', (_name, checked) => {
    it('passes @redocly/cli lint with no errors and no warnings', async () => {
      const redocly = join(dirname(require.resolve('@redocly/cli/package.json')), 'bin/cli.js');
      const directory = mkdtempSync(join(tmpdir(), 'plant-store-openapi-'));
      try {
        const file = join(directory, 'openapi.json');
        writeFileSync(file, JSON.stringify(checked));
        const { stdout } = await promisify(execFile)(process.execPath, [redocly, 'lint', file, '--format=json', '--config', join(root, 'redocly.yaml')], {
          cwd: root,
        }).catch((error: { stdout: string }) => error);
        const report = JSON.parse(stdout) as { totals: { errors: number; warnings: number }; problems: { message: string }[] };
        expect(report.problems.map((problem) => problem.message)).toEqual([]);
        expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
      } finally {
        rmSync(directory, { recursive: true, force: true });
      }
    });

    it('is a valid OpenAPI 3.1 document (@seriousme/openapi-schema-validator)', async () => {
      const validator = new Validator();
      const result = await validator.validate(checked);
      expect(result.errors ?? []).toEqual([]);
      expect(result.valid).toBe(true);
      expect(validator.version).toBe('3.1');
    });

    it("contains the seed's contract: info, security, request, 200 and 400, with the seed's labels and field meanings", () => {
      const seed = JSON.parse(readFileSync(join(root, 'runtime-tests/fixtures/seed-contract.json'), 'utf8')) as Json;
      const resolved = mergeAllOf(dereference(checked)) as Json;
      expect(resolved).toMatchObject(seedMatcher(seed) as Json);
      const post = (resolved['paths'] as Json)['/plants'] as { post: { responses: Record<string, { description: string; content: Json }> } };
      // The seed: "The response schema does not include id."
      const plant = ((post.post.responses['200']!.content['application/json'] as Json)['schema'] as Json)['properties'] as Json;
      expect(Object.keys(plant).sort()).toEqual(['name', 'tag']);
    });

    it('documents the headers the contract requires: WWW-Authenticate on 401, Allow on 405', () => {
      const responses = (dereference(checked)['components'] as Json)['responses'] as Record<string, { headers?: Record<string, { required?: boolean }> }>;
      expect(responses['Unauthorized']!.headers?.['WWW-Authenticate']?.required).toBe(true);
      expect(responses['MethodNotAllowed']!.headers?.['Allow']?.required).toBe(true);
    });
  });

  it('lists in a mounted handler’s document none of the answers only a standalone server or CORS gives', () => {
    const codes = JSON.stringify((document['components'] as Json)['responses']);
    for (const kind of ['malformed-request', 'request-timeout', 'headers-too-large', 'origin-not-allowed'] as const) {
      expect(codes, kind).not.toContain(`\`${errorTable[kind].code}\``);
    }
    expect(Object.keys((document['components'] as Json)['responses'] as Json)).not.toEqual(
      expect.arrayContaining(['Forbidden', 'RequestTimeout', 'RequestHeaderFieldsTooLarge']),
    );
  });

  it('drift: every error kind of the core is documented under its status in the fullest document, and nothing else is', () => {
    const resolved = dereference(fullest) as Json;
    const responses = (resolved['components'] as Json)['responses'] as Record<string, { content: Json }>;
    const documented = new Map<number, number[]>();
    const post = ((resolved['paths'] as Json)['/plants'] as { post: { responses: Record<string, unknown> } }).post.responses;
    for (const response of Object.values(responses)) {
      const schema = (response.content['application/json'] as Json)['schema'] as { allOf: Json[] };
      const codes = ((schema.allOf[1]!['properties'] as Json)['error'] as { enum: number[] }).enum;
      for (const code of codes) {
        const status = Object.values(errorTable).find((entry) => entry.code === code)?.status;
        expect(status, `code ${code}`).toBeDefined();
        documented.set(code, [...(documented.get(code) ?? []), status!]);
      }
    }
    for (const [kind, { code, status }] of Object.entries(errorTable)) {
      expect(documented.get(code), kind).toEqual([status]);
      if (!BEFORE_ANY_OPERATION.has(status)) expect(Object.keys(post), kind).toContain(String(status));
    }
  });

  it('drift: every status the fullest document names is produced by a request of the parity list (which every runtime answers)', () => {
    const statuses = new Set<number>([200]);
    for (const pathItem of Object.values(fullest['paths'] as Json)) {
      for (const operation of Object.values(pathItem as Json))
        for (const status of Object.keys((operation as Json)['responses'] as Json)) statuses.add(Number(status));
    }
    // The shared 404 and 405 responses belong to no operation: their statuses come from their codes.
    for (const response of Object.values((dereference(fullest)['components'] as Json)['responses'] as Record<string, { content: Json }>)) {
      const schema = (response.content['application/json'] as Json)['schema'] as { allOf: Json[] };
      for (const code of ((schema.allOf[1]!['properties'] as Json)['error'] as { enum: number[] }).enum) {
        statuses.add(Object.values(errorTable).find((entry) => entry.code === code)!.status);
      }
    }
    const produced = new Set([...REQUESTS.map((request) => request.status), ...Object.keys(PRODUCED_ELSEWHERE).map(Number)]);
    for (const status of statuses) expect(produced, `status ${status}`).toContain(status);
  });

  it("Prism's validation proxy (--errors) in front of the real server reports no violation for valid requests", async () => {
    const prism = require.resolve('@stoplight/prism-cli/dist/index.js', { paths: [root] });
    const child = spawn(process.execPath, [prism, 'proxy', STATIC_DOCUMENT, running.url, '--errors', '--host', '127.0.0.1', '--port', '0'], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let output = '';
        const timer = setTimeout(() => reject(new Error(`Prism did not start:\n${output}`)), 60_000);
        const onData = (chunk: Buffer) => {
          output += chunk.toString();
          const match = /Prism is listening on (http:\/\/\S+)/.exec(output);
          if (match) {
            clearTimeout(timer);
            resolve(match[1]!);
          }
        };
        child.stdout!.on('data', onData);
        child.stderr!.on('data', onData);
        child.once('exit', (code) => reject(new Error(`Prism exited with ${code}:\n${output}`)));
      });
      const headers = { authorization: `Bearer ${CONFORMANCE_TOKEN}`, 'content-type': 'application/json' };
      // Prism reads ids as doubles, so ids above 2^53 are checked directly (conformance suite), not here.
      const valid = [
        { request: { path: '/plants', headers, body: '{"id":101,"name":"Fern","tag":"green"}' }, status: 200 },
        { request: { path: '/plants', headers, body: '{"id":101,"name":"Fern","tag":"green"}' }, status: 200 },
        { request: { path: '/plants', headers, body: '{"id":102,"name":""}' }, status: 200 },
        { request: { path: '/plants', headers, body: '{"id":-9007199254740991,"name":"low","tag":"x"}' }, status: 200 },
        { request: { path: '/plants', headers, body: '{"id":101,"name":"Fern","tag":"blue"}' }, status: 409 },
        { request: { path: '/plants', headers: { ...headers, authorization: 'Bearer wrong-token' }, body: '{"id":103,"name":"n"}' }, status: 401 },
        { request: { method: 'GET', path: '/openapi.json' }, status: 200 },
      ];
      for (const { request, status } of valid) {
        const response = await send(url, request);
        expect({ status: response.status, violations: response.headers['sl-violations'] ?? 'none' }, request.body ?? request.path).toEqual({
          status,
          violations: 'none',
        });
      }
    } finally {
      child.kill('SIGKILL');
    }
  });
});
