import Ajv2020 from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv';
import type { RawResponse } from './http-client.ts';

type Json = Record<string, unknown>;

/** Replaces every local `$ref` with what it points at (the document has no cycles). */
export function dereference<T>(document: T): T {
  const root = document as unknown as Json;
  const resolve = (ref: string): unknown =>
    ref
      .slice(2)
      .split('/')
      .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce<unknown>((node, part) => (node as Json)[part], root);
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (node === null || typeof node !== 'object') return node;
    const ref = (node as Json)['$ref'];
    if (typeof ref === 'string' && ref.startsWith('#/')) return walk(resolve(ref));
    return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, walk(value)]));
  };
  return walk(document) as T;
}

/**
 * Checks answers against an OpenAPI 3.1 document with Ajv's JSON Schema
 * 2020-12 validator: the status is documented for the operation, the content
 * type is one it lists (or within a range it lists), a JSON body matches its
 * schema (other bodies are text, and not parsed), required headers are
 * there and match theirs. A path the document lacks must answer its
 * `components.responses.NotFound`, a method it lacks `MethodNotAllowed`.
 * HEAD is checked as GET, but for its body, which it has none of.
 *
 * @returns a function giving the problems with one answer; none is an empty list.
 */
export function createResponseValidator(document: unknown): (method: string, path: string, response: RawResponse) => string[] {
  const resolved = dereference(document) as Json;
  const paths = resolved['paths'] as Record<string, Json>;
  const shared = (resolved['components'] as Json)['responses'] as Record<string, Json>;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  ajv.addFormat('int32', { type: 'number', validate: (n: number) => Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31 });
  ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isInteger(n) });
  const compiled = new Map<unknown, ValidateFunction>();
  const check = (schema: unknown, value: unknown): string[] => {
    const validate = compiled.get(schema) ?? ajv.compile(schema as Json);
    compiled.set(schema, validate);
    return validate(value) ? [] : (validate.errors ?? []).map((error) => `${error.instancePath || '(root)'} ${error.message ?? ''}`);
  };

  // Templated paths (`/docs/{file}`) as patterns; a concrete path wins over a template (OpenAPI 3.1 §4.8.8).
  const templates = Object.keys(paths)
    .filter((template) => template.includes('{'))
    .map((template) => ({
      template,
      pattern: new RegExp(
        `^${template
          .split(/\{[^}]+\}/)
          .map(escapeRegExp)
          .join('[^/]+')}$`,
      ),
    }));
  const pathItemOf = (path: string): Json | undefined => paths[path] ?? paths[templates.find(({ pattern }) => pattern.test(path))?.template ?? ''];

  return (method, path, response) => {
    const pathItem = pathItemOf(path.split('?')[0]!);
    // HEAD is GET without the body (the document lists GET routes only): its head is checked against GET's answer.
    const head = method.toUpperCase() === 'HEAD';
    const operation = pathItem?.[head ? 'get' : method.toLowerCase()] as Json | undefined;
    let spec: Json | undefined;
    if (pathItem === undefined) spec = response.status === 404 ? shared['NotFound'] : undefined;
    else if (operation === undefined) spec = response.status === 405 ? shared['MethodNotAllowed'] : undefined;
    else spec = (operation['responses'] as Record<string, Json>)[String(response.status)];
    const where = `${method} ${path} → ${response.status}`;
    if (spec === undefined) return [`${where}: status not documented`];

    const problems: string[] = [];
    const content = spec['content'] as Record<string, Json> | undefined;
    const type = String(response.headers['content-type'] ?? '')
      .split(';')[0]!
      .trim();
    // An exact media type first, then a range (`text/*`, `*/*`), as OpenAPI 3.1 §4.8.14 orders them.
    const media = content?.[type] ?? content?.[`${type.split('/')[0]}/*`] ?? content?.['*/*'];
    if (media === undefined) problems.push(`${where}: content type ${JSON.stringify(type)} not documented`);
    else if (!head && (type === 'application/json' || type.endsWith('+json'))) {
      let body: unknown;
      try {
        body = JSON.parse(response.body);
      } catch {
        problems.push(`${where}: body is not JSON`);
      }
      if (body !== undefined) problems.push(...check(media['schema'], body).map((problem) => `${where}: body ${problem}`));
    }
    for (const [name, header] of Object.entries((spec['headers'] ?? {}) as Record<string, Json>)) {
      const value = response.headers[name.toLowerCase()];
      if (value === undefined) {
        if (header['required'] === true) problems.push(`${where}: required header ${name} missing`);
      } else problems.push(...check(header['schema'], value).map((problem) => `${where}: header ${name} ${problem}`));
    }
    return problems;
  };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
