// Runs in Node (vitest): the document createOpenApiDocument builds, as plain data.
import { describe, expect, it } from 'vitest';
import { createOpenApiDocument } from './openapi-document.ts';

type Json = Record<string, unknown>;
const at = (node: unknown, ...keys: string[]): unknown => keys.reduce<unknown>((value, key) => (value as Json)[key], node);

describe('createOpenApiDocument', () => {
  it("carries the seed's labels and the meaning of every field", () => {
    const document = createOpenApiDocument();
    expect(at(document, 'paths', '/plants', 'post', 'responses', '200', 'description')).toBe('Plant response');
    const schemas = at(document, 'components', 'schemas');
    expect(at(schemas, 'Plant', 'properties', 'name', 'description')).toBe('The name of the plant');
    expect(at(schemas, 'Plant', 'properties', 'tag', 'description')).toBe('Tag that specifies the type');
    expect(at(schemas, 'NewPlant', 'properties', 'name', 'description')).toBe('The name of the plant');
    expect(at(schemas, 'NewPlant', 'properties', 'tag', 'description')).toBe('Tag that specifies the type');
    expect(at(schemas, 'Error', 'properties', 'error', 'description')).toBe('Numeric error value');
    expect(at(schemas, 'Error', 'properties', 'message', 'description')).toBe('Error message text');
    expect(at(schemas, 'Error', 'properties', 'error', 'format')).toBe('int32');
  });

  it('says on id that its digits are exact, that numbers lose them above 2^53, and how to keep them', () => {
    const id = at(createOpenApiDocument(), 'components', 'schemas', 'NewPlant', 'properties', 'id') as Json;
    expect(id).toMatchObject({ type: 'integer', format: 'int64' });
    const description = id['description'] as string;
    expect(description.split('\n')[0]).toBe('Identification number of the plant.');
    for (const words of ['exact', '2^53', 'lossless', '@plant-store/client', 'openapi-typescript', 'hey-api', 'orval']) expect(description).toContain(words);
  });

  it('gives the request body and its answer a real plant as their example', () => {
    const post = at(createOpenApiDocument(), 'paths', '/plants', 'post');
    expect(at(post, 'requestBody', 'content', 'application/json', 'example')).toEqual({ id: 10, name: 'Monstera', tag: 'tropical' });
    expect(at(post, 'responses', '200', 'content', 'application/json', 'example')).toEqual({ name: 'Monstera', tag: 'tropical' });
  });

  it('says in words, not raw pointers, what answers belong to no operation, for the mount it describes', () => {
    const mounted = at(createOpenApiDocument(), 'info', 'description') as string;
    expect(mounted).not.toContain('#/components');
    expect(mounted).toContain('404 (code 1200)');
    expect(mounted).not.toMatch(/1005|1102|1402|1403/);
    const standalone = at(
      createOpenApiDocument('/', { cors: true, protocolErrors: ['malformed-request', 'request-timeout', 'headers-too-large'] }),
      'info',
      'description',
    ) as string;
    expect(standalone).not.toContain('#/components');
    for (const code of ['403 (code 1102)', '400 (code 1005)', '408 (code 1402)', '431 (code 1403)']) expect(standalone).toContain(code);
  });

  it('lists in each shared error response only the codes the mount can answer', () => {
    const codes = (document: unknown, name: string) =>
      at(document, 'components', 'responses', name, 'content', 'application/json', 'schema', 'allOf', '1', 'properties', 'error', 'enum');
    expect(codes(createOpenApiDocument(), 'BadRequest')).toEqual([1000, 1001, 1002, 1003, 1004]);
    expect(codes(createOpenApiDocument('/', { protocolErrors: ['malformed-request'] }), 'BadRequest')).toEqual([1000, 1001, 1002, 1003, 1004, 1005]);
    expect(at(createOpenApiDocument('/', { protocolErrors: ['malformed-request'] }), 'components', 'responses', 'RequestTimeout')).toBeUndefined();
  });
});
