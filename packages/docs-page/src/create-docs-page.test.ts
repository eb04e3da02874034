import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import * as built from '../dist/index.js';
import { createDocsPage } from './create-docs-page.ts';
import { docsPage } from './docs-page.ts';
import { stripSourceMapComment } from './strip-source-map-comment.ts';

const swaggerUiDist = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const readSwaggerUi = (name: string) => readFileSync(join(swaggerUiDist, name), 'utf8');
const packageRoot = fileURLToPath(new URL('..', import.meta.url));

/** The URLs of the page's `src` and `href` attributes. */
function references(html: string): string[] {
  return [...html.matchAll(/\s(?:src|href)="([^"]*)"/g)].map((match) => match[1]!);
}

describe('createDocsPage', () => {
  it('loads only its own files, by URLs relative to {base}/docs', () => {
    const page = createDocsPage();
    const urls = references(page.html);
    expect(urls).toEqual(['docs/favicon.svg', 'docs/swagger-ui.css', 'docs/swagger-ui-bundle.js', 'docs/init.js']);
    for (const url of urls) expect(Object.keys(page.files)).toContain(url.slice('docs/'.length));
    // Nothing absolute or protocol-relative anywhere in the page or its initialiser.
    expect(page.html).not.toMatch(/https?:|\/\//);
    expect(page.files['init.js']!.body.replace(/^\s*\/\/.*$/gm, '')).not.toMatch(/https?:|\/\//);
  });

  it('has no inline script, so that it runs under a script-src of self alone', () => {
    const { html } = createDocsPage();
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.map(([, attributes]) => attributes)).toEqual([' src="docs/swagger-ui-bundle.js" defer', ' src="docs/init.js" defer']);
    expect(scripts.map(([, , body]) => body)).toEqual(['', '']);
    expect(html.match(/<script\b/g)).toHaveLength(2);
    expect(html).not.toMatch(/\son[a-z]+=|javascript:/i);
  });

  it("points Swagger UI at the service's own document, with no validator and no document from the address bar", () => {
    const init = docsPage.files['init.js']!.body;
    expect(init).toContain("url: 'openapi.json'");
    expect(init).toContain('validatorUrl: null');
    expect(init).toContain('queryConfigEnabled: false');
    expect(init).toContain('persistAuthorization: false');
  });

  it('serves every file with its media type', () => {
    const types = Object.fromEntries(Object.entries(docsPage.files).map(([name, file]) => [name, file.contentType]));
    expect(types).toEqual({
      'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
      'swagger-ui.css': 'text/css; charset=utf-8',
      'init.js': 'text/javascript; charset=utf-8',
      'favicon.svg': 'image/svg+xml',
      'swagger-ui-bundle.js.LICENSE.txt': 'text/plain; charset=utf-8',
      NOTICE: 'text/plain; charset=utf-8',
    });
  });

  it('writes the title into the page, escaped, and refuses a title that is not a string', () => {
    expect(docsPage.html).toContain('<title>OpenAPI Plant Store</title>');
    expect(createDocsPage({ title: `<Plants & "Co's">` }).html).toContain('<title>&lt;Plants &amp; &quot;Co&#39;s&quot;&gt;</title>');
    expect(() => createDocsPage({ title: 7 as unknown as string })).toThrow(TypeError);
  });

  it('shares one frozen set of files between pages', () => {
    const page = createDocsPage({ title: 'Other' });
    expect(page.files).toBe(docsPage.files);
    expect(Object.isFrozen(page)).toBe(true);
    expect(Object.isFrozen(page.files)).toBe(true);
    expect(Object.isFrozen(page.files['init.js'])).toBe(true);
  });

  it("carries Swagger UI's notices and licence, for the version it embeds", () => {
    const notice = readFileSync(join(packageRoot, 'NOTICE'), 'utf8');
    const { version } = JSON.parse(readSwaggerUi('package.json')) as { version: string };
    expect(notice).toContain(`swagger-ui-dist ${version}`);
    for (const name of ['NOTICE', 'swagger-ui-bundle.js.LICENSE.txt', 'LICENSE']) expect(notice).toContain(readSwaggerUi(name));
    expect(docsPage.files['NOTICE']!.body).toBe(notice);
    expect(docsPage.files['swagger-ui-bundle.js.LICENSE.txt']!.body).toBe(readSwaggerUi('swagger-ui-bundle.js.LICENSE.txt'));
  });
});

describe('the build', () => {
  it("embeds Swagger UI's files as they are, less their source map comments", () => {
    for (const name of ['swagger-ui-bundle.js', 'swagger-ui.css']) {
      expect(built.docsPage.files[name]!.body === stripSourceMapComment(readSwaggerUi(name)), name).toBe(true);
    }
    for (const [name, file] of Object.entries(built.docsPage.files)) expect(file.body, name).not.toContain('sourceMappingURL=');
    expect({ ...built.docsPage.files, 'swagger-ui.css': undefined }).toEqual({ ...docsPage.files, 'swagger-ui.css': undefined });
    expect(built.docsPage.html).toBe(docsPage.html);
  });

  it('imports nothing at run time, so it needs no filesystem and no swagger-ui-dist', async () => {
    for (const name of ['index.js', 'index.cjs']) {
      const entry = join(packageRoot, 'dist', name);
      const { metafile } = await build({ entryPoints: [entry], bundle: true, write: false, metafile: true, platform: 'neutral', logLevel: 'silent' });
      expect(Object.values(metafile.inputs).map((input) => input.imports)).toEqual([[]]);
      expect(readFileSync(entry, 'utf8'), name).not.toContain('sourceMappingURL=');
    }
  });
});
