// The docs page and the client in a real browser: headless Chromium (support/chromium.mjs) against
// real node:http servers on port 0. The docs page must render the served document and load nothing
// from any other origin under its Content-Security-Policy; a page on an allowed origin creates a
// plant through @plant-store/client across origins, and a page on any other origin cannot.
import { once } from 'node:events';
import { mkdirSync, readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createNodeHandler } from '@plant-store/adapter-node';
import { staticTokens } from '@plant-store/core';
import { docsPage } from '@plant-store/docs-page';
import { createMemoryStore } from '@plant-store/store-memory';
import { build } from 'esbuild';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './support/chromium.mjs';

const TOKEN = 'browser-test-token';
const INT64_MAX = 9223372036854775807n;
const here = fileURLToPath(new URL('.', import.meta.url));
const artifacts = join(here, 'artifacts');
// Every wait in a page is bounded by this; Chromium renders Swagger UI in about a second.
const WAIT_MS = 15_000;

const servers: Server[] = [];
const contexts: BrowserContext[] = [];
let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});

afterAll(async () => {
  await Promise.allSettled(contexts.map((context) => context.close()));
  await browser?.close();
  await Promise.allSettled(
    servers.map((server) => {
      server.closeAllConnections();
      return new Promise((closed) => server.close(closed));
    }),
  );
});

/** A server on a free port of 127.0.0.1, closed in afterAll; resolves with its origin. */
async function listen(listener: RequestListener): Promise<string> {
  const server = createServer(listener);
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A page in a fresh context (no shared cache, no cached preflights), closed in afterAll. */
async function newPage(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  contexts.push(context);
  const page = await context.newPage();
  page.setDefaultTimeout(WAIT_MS);
  page.setDefaultNavigationTimeout(WAIT_MS);
  return page;
}

/** What a page did on the network and in its console, gathered from the moment it is watched. */
interface PageActivity {
  readonly requests: { readonly method: string; readonly url: string }[];
  /** Requests that got no answer, or an answer of 400 or more. */
  readonly failures: string[];
  readonly consoleErrors: string[];
  /** Bytes received: headers and bodies of every answer. */
  transferred(): Promise<number>;
  /** Content-Security-Policy violations the page reported. */
  violations(): Promise<string[]>;
}

async function watch(page: Page): Promise<PageActivity> {
  const requests: { method: string; url: string }[] = [];
  const failures: string[] = [];
  const consoleErrors: string[] = [];
  const sized: Promise<number>[] = [];
  page.on('request', (request) => requests.push({ method: request.method(), url: request.url() }));
  page.on('requestfailed', (request) => failures.push(`${request.method()} ${request.url()}: ${request.failure()?.errorText ?? 'failed'}`));
  page.on('requestfinished', (request) => sized.push(request.sizes().then((sizes) => sizes.responseHeadersSize + sizes.responseBodySize)));
  page.on('response', (response) => {
    if (response.status() >= 400) failures.push(`${response.request().method()} ${response.url()}: ${response.status()}`);
  });
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => consoleErrors.push(`uncaught: ${error.message}`));
  // Runs before the page's own scripts, outside its policy, so that every violation is seen.
  await page.addInitScript(() => {
    const seen: string[] = [];
    Object.assign(window, { __violations: seen });
    document.addEventListener('securitypolicyviolation', (event) => seen.push(`${event.violatedDirective} ${event.blockedURI}`));
  });
  return {
    requests,
    failures,
    consoleErrors,
    transferred: async () => (await Promise.all(sized)).reduce((sum, bytes) => sum + bytes, 0),
    violations: () => page.evaluate(() => (window as unknown as { __violations: string[] }).__violations),
  };
}

/** Checks that a file is a PNG image of at least the given size, reading its IHDR chunk. */
function expectPng(path: string, minWidth: number, minHeight: number): void {
  const png = readFileSync(path);
  expect(png.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])), `${path} is a PNG`).toBe(true);
  expect(png.subarray(12, 16).toString('latin1')).toBe('IHDR');
  expect(png.readUInt32BE(16)).toBeGreaterThanOrEqual(minWidth);
  expect(png.readUInt32BE(20)).toBeGreaterThanOrEqual(minHeight);
  // A blank page compresses to a few kilobytes; a rendered one does not.
  expect(png.length).toBeGreaterThan(20_000);
}

describe('the docs page in Chromium', () => {
  const store = createMemoryStore();
  const origins = new Map<string, string>();

  beforeAll(async () => {
    for (const basePath of ['', '/v1']) {
      const handler = createNodeHandler({ store, authenticate: staticTokens([TOKEN]), basePath, docs: docsPage, onError: () => {} });
      origins.set(basePath, await listen(handler));
    }
    mkdirSync(artifacts, { recursive: true });
  });

  /** Opens {base}/docs and waits until Swagger UI shows POST /plants. */
  async function openDocs(page: Page, basePath: string) {
    const origin = origins.get(basePath)!;
    const answer = await page.goto(`${origin}${basePath}/docs`);
    expect(answer?.status()).toBe(200);
    expect(answer?.headers()['content-security-policy']).toContain("script-src 'self'");
    const operation = page.locator('.opblock-post').filter({ has: page.locator('[data-path="/plants"]') });
    await operation.waitFor();
    return { origin, operation };
  }

  it.each(['', '/v1'])('renders POST /plants with every response of the document, from this origin alone (basePath %j)', async (basePath) => {
    const page = await newPage();
    const activity = await watch(page);
    const { origin, operation } = await openDocs(page, basePath);

    await expect(page.locator('.info .title').textContent()).resolves.toContain('OpenAPI Plant Store');
    // The intro speaks of answers in words: no raw JSON pointers such as #/components/responses/NotFound.
    const intro = (await page.locator('.info .description').textContent()) ?? '';
    expect(intro).toContain('404 (code 1200)');
    expect(intro).not.toContain('#/');
    await operation.locator('.opblock-summary-control').click();
    const statuses = operation.locator('.responses-table:not(.live-responses-table) > tbody > tr > .response-col_status');
    await statuses.first().waitFor();
    const shown = (await statuses.allTextContents()).map((text) => text.trim());
    const document = (await (await fetch(`${origin}${basePath}/openapi.json`)).json()) as { paths: Record<string, { post?: { responses: object } }> };
    const listed = Object.keys(document.paths['/plants']!.post!.responses);
    expect(listed).toEqual(expect.arrayContaining(['200', '400', '401', '409', '413']));
    expect([...shown].sort()).toEqual([...listed].sort());

    const screenshot = join(artifacts, `docs-page${basePath.replaceAll('/', '-')}.png`);
    await page.screenshot({ path: screenshot, fullPage: true });
    expectPng(screenshot, 1280, 900);

    const paths = activity.requests.filter(({ url }) => !url.startsWith('data:')).map(({ method, url }) => `${method} ${new URL(url).pathname}`);
    expect(paths).toEqual(
      expect.arrayContaining([
        `GET ${basePath}/docs`,
        `GET ${basePath}/docs/swagger-ui.css`,
        `GET ${basePath}/docs/swagger-ui-bundle.js`,
        `GET ${basePath}/docs/init.js`,
        `GET ${basePath}/openapi.json`,
      ]),
    );
    // Nothing leaves 127.0.0.1: every request but inline data: images goes to the page's own origin.
    expect(activity.requests.filter(({ url }) => !url.startsWith('data:') && new URL(url).origin !== origin)).toEqual([]);
    expect(activity.failures).toEqual([]);
    expect(activity.consoleErrors).toEqual([]);
    await expect(activity.violations()).resolves.toEqual([]);
    console.log(`docs page at ${basePath}/docs: ${paths.length} requests, ${await activity.transferred()} bytes received`);
  });

  /** Gives the page the bearer token through Authorize. */
  async function authorize(page: Page) {
    await page.locator('.auth-wrapper button.authorize').click();
    const dialog = page.locator('.dialog-ux .modal-ux');
    await dialog.locator('input').first().fill(TOKEN);
    await dialog.locator('button.modal-btn.authorize').click();
    await dialog.locator('button.btn-done').click();
  }

  it('starts "Try it out" from the document\'s example, a real plant, and creates it as shown', async () => {
    const page = await newPage();
    const activity = await watch(page);
    const { origin, operation } = await openDocs(page, '');
    await authorize(page);
    await operation.locator('.opblock-summary-control').click();
    await operation.locator('button.try-out__btn').click();
    const body = operation.locator('textarea.body-param__text');
    expect(JSON.parse(await body.inputValue())).toEqual({ id: 10, name: 'Monstera', tag: 'tropical' });
    const posted = page.waitForResponse((response) => response.request().method() === 'POST');
    await operation.locator('button.execute').click();
    const answer = await posted;
    expect([answer.url(), answer.status()]).toEqual([`${origin}/plants`, 200]);
    expect(await answer.json()).toEqual({ name: 'Monstera', tag: 'tropical' });
    expect(await store.get(10n)).toEqual({ name: 'Monstera', tag: 'tropical' });
    // Swagger UI's own placeholder plant, had the document no example.
    expect(await store.get(0n)).toBeUndefined();
    expect(activity.failures).toEqual([]);
    expect(activity.consoleErrors).toEqual([]);
    await expect(activity.violations()).resolves.toEqual([]);
  });

  it('creates a plant with "Try it out" and the bearer token, the id exact at 2^63 - 2', async () => {
    const page = await newPage();
    const activity = await watch(page);
    const { origin, operation } = await openDocs(page, '/v1');
    await authorize(page);

    await operation.locator('.opblock-summary-control').click();
    await operation.locator('button.try-out__btn').click();
    await operation.locator('textarea.body-param__text').fill('{"id": 9223372036854775806, "name": "Pilea", "tag": "from the docs page"}');
    const posted = page.waitForResponse((response) => response.request().method() === 'POST');
    await operation.locator('button.execute').click();
    const answer = await posted;
    expect(answer.url()).toBe(`${origin}/v1/plants`);
    expect(answer.request().headers()['authorization']).toBe(`Bearer ${TOKEN}`);
    expect(answer.status()).toBe(200);
    const shownStatus = operation.locator('.live-responses-table tbody .response-col_status').first();
    await shownStatus.waitFor();
    expect((await shownStatus.textContent())?.trim()).toBe('200');

    expect(await store.get(9223372036854775806n)).toEqual({ name: 'Pilea', tag: 'from the docs page' });
    await page.screenshot({ path: join(artifacts, 'docs-page-try-it-out.png'), fullPage: true });
    expect(activity.requests.filter(({ url }) => !url.startsWith('data:') && new URL(url).origin !== origin)).toEqual([]);
    expect(activity.failures).toEqual([]);
    expect(activity.consoleErrors).toEqual([]);
    await expect(activity.violations()).resolves.toEqual([]);
  });
});

/** The test page's script: a form that creates a plant through @plant-store/client, bundled by esbuild. */
const APP = `
import { createPlantClient } from '@plant-store/client';

const params = new URLSearchParams(location.search);
// No retries: a refused origin is a network failure, which the client would otherwise retry.
const client = createPlantClient({ baseUrl: params.get('api'), token: params.get('token'), retry: false, timeoutMs: 5000 });
const form = document.querySelector('form');
const output = document.querySelector('output');
form.addEventListener('submit', async (event) => {
  event.preventDefault();
  const field = (name) => form.elements.namedItem(name).value;
  const outcome = await client.tryCreatePlant({ id: BigInt(field('id')), name: field('name'), tag: field('tag') });
  output.textContent = JSON.stringify(
    outcome.ok ? { ok: true, plant: outcome.value } : { ok: false, code: outcome.error.code, status: outcome.error.status ?? null },
  );
  output.dataset.done = 'true';
});
`;

const PAGE = `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8"><title>Plants</title><link rel="icon" href="data:,"><script src="/app.js" defer></script></head>
  <body>
    <form><input name="id"><input name="name"><input name="tag"><button>Create</button></form>
    <output></output>
  </body>
</html>
`;

describe('@plant-store/client in Chromium, across origins', () => {
  const store = createMemoryStore();
  /** What reached the API server: method, path and the CORS request headers. */
  const arrived: { method: string; path: string; origin: string | undefined; requestHeaders: string | undefined }[] = [];
  let api = '';
  let allowedPage = '';
  let otherPage = '';

  beforeAll(async () => {
    const { outputFiles } = await build({
      stdin: { contents: APP, resolveDir: here, sourcefile: 'app.js', loader: 'js' },
      bundle: true,
      write: false,
      format: 'iife',
      platform: 'browser',
      target: 'chrome120',
      logLevel: 'silent',
    });
    const app = outputFiles[0]!.text;
    const pageServer: RequestListener = (req, res) => {
      if (req.url === '/app.js') res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(app);
      else if (req.url?.startsWith('/?') || req.url === '/') res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
      else res.writeHead(404).end();
    };
    allowedPage = await listen(pageServer);
    otherPage = await listen(pageServer);
    const handler = createNodeHandler({ store, authenticate: staticTokens([TOKEN]), basePath: '/v1', cors: { origins: [allowedPage] }, onError: () => {} });
    api = await listen((req, res) => {
      const header = (name: keyof IncomingHttpHeaders) => req.headers[name] as string | undefined;
      arrived.push({ method: req.method!, path: req.url!, origin: header('origin'), requestHeaders: header('access-control-request-headers') });
      handler(req, res);
    });
  });

  /** Opens the test page on an origin, creates a plant from its form, and returns what the page shows. */
  async function createFrom(pageOrigin: string, plant: { id: string; name: string; tag: string }) {
    const page = await newPage();
    const activity = await watch(page);
    await page.goto(`${pageOrigin}/?${new URLSearchParams({ api: `${api}/v1`, token: TOKEN })}`);
    for (const [name, value] of Object.entries(plant)) await page.locator(`input[name="${name}"]`).fill(value);
    await page.locator('button').click();
    await page.locator('output[data-done="true"]').waitFor();
    return { shown: JSON.parse((await page.locator('output').textContent())!) as unknown, activity };
  }

  it('creates a plant with id 2^63 - 1 from a page on the allowed origin', async () => {
    const from = arrived.length;
    const { shown, activity } = await createFrom(allowedPage, { id: String(INT64_MAX), name: 'Monstera', tag: 'tropical' });
    expect(shown).toEqual({ ok: true, plant: { name: 'Monstera', tag: 'tropical' } });
    expect(activity.failures).toEqual([]);
    expect(activity.consoleErrors).toEqual([]);

    // The browser asked first (the bearer token makes the request non-simple), then sent the create.
    expect(arrived.slice(from).map(({ method, path, origin }) => [method, path, origin])).toEqual([
      ['OPTIONS', '/v1/plants', allowedPage],
      ['POST', '/v1/plants', allowedPage],
    ]);
    expect(arrived[from]!.requestHeaders?.split(',').sort()).toEqual(['authorization', 'content-type']);

    // Stored exactly: the server holds it, and another create of the same id with other content is a conflict.
    expect(await store.get(INT64_MAX)).toEqual({ name: 'Monstera', tag: 'tropical' });
    const conflict = await fetch(`${api}/v1/plants`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: '{"id": 9223372036854775807, "name": "Monstera", "tag": "variegated"}',
    });
    expect(conflict.status).toBe(409);
    expect(((await conflict.json()) as { error: number }).error).toBe(1300);
  });

  it('lets a page on the allowed origin send Idempotency-Key, which the service accepts and ignores: the id is the key', async () => {
    const from = arrived.length;
    const page = await newPage();
    const activity = await watch(page);
    await page.goto(`${allowedPage}/?${new URLSearchParams({ api: `${api}/v1`, token: TOKEN })}`);
    // As a client of draft-ietf-httpapi-idempotency-key-header sends every create: the same key, the same body, twice; then another body.
    const statuses = await page.evaluate(
      async ({ url, token }) => {
        const create = async (body: string) =>
          (
            await fetch(url, {
              method: 'POST',
              headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': 'b2c1e0d4-key' },
              body,
            })
          ).status;
        return [await create('{"id":77,"name":"Fern"}'), await create('{"id":77,"name":"Fern"}'), await create('{"id":77,"name":"Ivy"}')];
      },
      { url: `${api}/v1/plants`, token: TOKEN },
    );
    expect(statuses).toEqual([200, 200, 409]);
    expect(await store.get(77n)).toEqual({ name: 'Fern' });
    const preflight = arrived.slice(from).find(({ method }) => method === 'OPTIONS');
    expect(preflight?.requestHeaders?.split(',').sort()).toEqual(['authorization', 'content-type', 'idempotency-key']);
    // The one answer of 400 or more is the conflict, which the page could read; nothing was blocked.
    expect(activity.failures).toEqual([`POST ${api}/v1/plants: 409`]);
    expect(activity.consoleErrors.join('\n')).not.toMatch(/CORS/);
  });

  it('fails with a network error, and stores nothing, from a page on an origin not allowed', async () => {
    const from = arrived.length;
    const { shown, activity } = await createFrom(otherPage, { id: '42', name: 'Fern', tag: 'shade' });
    expect(shown).toEqual({ ok: false, code: 'network', status: null });
    expect(activity.consoleErrors.join('\n')).toMatch(/blocked by CORS policy/);
    // Only the preflight reached the server, and it was refused: the create itself was never sent.
    expect(arrived.slice(from).map(({ method, path, origin }) => [method, path, origin])).toEqual([['OPTIONS', '/v1/plants', otherPage]]);
    expect(await store.get(42n)).toBeUndefined();
  });

  it('answers preflights with the exact origin, never "*", and no credentials', async () => {
    const preflight = (origin: string) =>
      fetch(`${api}/v1/plants`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
      });
    const allowed = await preflight(allowedPage);
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(allowedPage);
    expect(allowed.headers.get('access-control-allow-methods')?.split(/,\s*/)).toContain('POST');
    expect(allowed.headers.get('access-control-allow-headers')?.split(/,\s*/)).toEqual(expect.arrayContaining(['authorization', 'content-type']));
    expect(allowed.headers.get('access-control-allow-credentials')).toBeNull();
    expect(allowed.headers.get('vary')).toMatch(/\bOrigin\b/i);
    expect(Number(allowed.headers.get('access-control-max-age'))).toBeGreaterThan(0);

    const refused = await preflight(otherPage);
    expect(refused.status).toBe(403);
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
    expect(((await refused.json()) as { error: number }).error).toBe(1102);
  });
});
