import { describe, expect, it } from 'vitest';
import { createDocsResponses, DOCS_CONTENT_SECURITY_POLICY } from './docs-responses.ts';

const page = {
  html: '<!doctype html><script src="docs/app.js"></script>',
  files: {
    'app.js': { contentType: 'text/javascript; charset=utf-8', body: 'console.log(1)' },
    'css/app.css': { contentType: 'text/css', body: 'body{}' },
  },
};

describe('createDocsResponses', () => {
  it('serves the page as HTML and each file with its type, all under the strict policy and nosniff', () => {
    const docs = createDocsResponses(page);
    expect(docs.page.status).toBe(200);
    expect(docs.page.body).toBe(page.html);
    expect(docs.page.headers).toEqual({
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-cache',
      'content-security-policy': DOCS_CONTENT_SECURITY_POLICY,
      'x-content-type-options': 'nosniff',
    });
    expect([...docs.files.keys()]).toEqual(['app.js', 'css/app.css']);
    const file = docs.files.get('css/app.css')!;
    expect([file.status, file.body, file.headers['content-type'], file.headers['cache-control']]).toEqual([200, 'body{}', 'text/css', 'public, max-age=3600']);
    expect(file.headers['content-security-policy']).toBe(DOCS_CONTENT_SECURITY_POLICY);
  });

  it('carries each body encoded once as UTF-8, for adapters to write without a copy per answer', () => {
    const docs = createDocsResponses({ html: '<p>Café</p>', files: { 'a.js': { contentType: 'text/javascript', body: '"🌱"' } } });
    const decode = (bytes: Uint8Array | undefined) => new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    expect(decode(docs.page.bytes)).toBe('<p>Café</p>');
    expect(docs.page.bytes!.byteLength).toBe(12);
    expect(decode(docs.files.get('a.js')!.bytes)).toBe('"🌱"');
  });

  it('keeps the policy at least as strict as required: no inline script, nothing from another origin', () => {
    const directives = new Map(DOCS_CONTENT_SECURITY_POLICY.split('; ').map((directive) => [directive.split(' ')[0]!, directive.split(' ').slice(1)]));
    expect(directives.get('default-src')).toEqual(["'self'"]);
    expect(directives.get('script-src')).toEqual(["'self'"]);
    expect(directives.get('connect-src')).toEqual(["'self'"]);
    expect(directives.get('img-src')).toEqual(["'self'", 'data:']);
    expect(directives.get('style-src')).toEqual(["'self'", "'unsafe-inline'"]);
  });

  it('refuses what it could not serve safely at construction', () => {
    const file = { contentType: 'text/plain', body: '' };
    for (const docs of [
      undefined,
      { files: {} },
      { html: '', files: null },
      { html: '', files: { '': file } },
      { html: '', files: { '../secret': file } },
      { html: '', files: { 'a/./b': file } },
      { html: '', files: { 'a b': file } },
      { html: '', files: { 'a?b': file } },
      { html: '', files: { '/abs': file } },
      { html: '', files: { 'a.js': { contentType: 'text/plain\r\nx-evil: 1', body: '' } } },
      { html: '', files: { 'a.js': { contentType: 'text/plain', body: 1 } } },
      { html: '', files: { 'a.js': null } },
    ]) {
      expect(() => createDocsResponses(docs as never), JSON.stringify(docs)).toThrow(TypeError);
    }
  });
});
