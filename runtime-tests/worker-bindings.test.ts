// Runs under vitest on Node: the built Worker (packages/server/dist/standalone/worker.js) in a real workerd,
// started through miniflare with the bindings a deployment might give it, wrong ones included.
import { dirname } from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { CONFORMANCE_TOKEN } from '@plant-store/testing';
import { Miniflare, type MiniflareOptions } from 'miniflare';
import { afterEach, describe, expect, it } from 'vitest';

const worker = fileURLToPath(new URL('../packages/server/dist/standalone/worker.js', import.meta.url));
const running: Miniflare[] = [];

afterEach(async () => {
  await Promise.all(running.splice(0).map((miniflare) => miniflare.dispose()));
});

/** The Worker with `bindings`, in a workerd of its own: where to send requests, and the first line of Plant Store its console writes. */
async function startWorker(bindings: Record<string, string>): Promise<{ baseUrl: string; firstLine: () => Promise<string> }> {
  let written = '';
  let onWrite = () => {};
  const lines = () => written.split('\n').filter((line) => line.includes('plant-store'));
  const options: MiniflareOptions & { handleRuntimeStdio(stdout: Readable, stderr: Readable): void } = {
    host: '127.0.0.1',
    port: 0,
    handleRuntimeStdio: (stdout: Readable, stderr: Readable) => {
      for (const stream of [stdout, stderr]) {
        stream.setEncoding('utf8').on('data', (chunk: string) => {
          written += chunk;
          onWrite();
        });
      }
    },
    workers: [
      {
        name: 'plant-store',
        modules: true,
        scriptPath: worker,
        modulesRoot: dirname(worker),
        compatibilityDate: '2026-07-01',
        unsafeDirectSockets: [{ host: '127.0.0.1', port: 0 }],
        bindings,
      },
    ],
  };
  const miniflare = new Miniflare(options);
  running.push(miniflare);
  await miniflare.ready;
  const baseUrl = (await miniflare.unsafeGetDirectURL('plant-store')).href.replace(/\/$/, '');
  // Checked on each write: workerd's console reaches its output a little after the answer.
  // Bounded, so that a line that never comes fails with its cause rather than the test's timeout.
  const firstLine = () =>
    new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no line of Plant Store's from the Worker within 10 s; it wrote: ${written}`)), 10_000);
      onWrite = () => {
        const [line] = lines();
        if (line === undefined) return;
        clearTimeout(timer);
        resolve(line);
      };
      onWrite();
    });
  return { baseUrl, firstLine };
}

/** A create, and the health probe, each answered. */
async function askThrice(baseUrl: string): Promise<{ status: number; type: string | null; body: unknown }[]> {
  const create = () =>
    fetch(`${baseUrl}/plants`, {
      method: 'POST',
      headers: { authorization: `Bearer ${CONFORMANCE_TOKEN}`, 'content-type': 'application/json' },
      body: '{"id":1,"name":"Fern"}',
    });
  const answers = [];
  for (const send of [create, () => fetch(`${baseUrl}/openapi.json`), create]) {
    const response = await send();
    answers.push({ status: response.status, type: response.headers.get('content-type'), body: await response.json() });
  }
  return answers;
}

describe('a deployed Worker with bindings it cannot serve with', () => {
  const cases: [string, Record<string, string>, string][] = [
    [
      'PLANT_STORE_TOKENS bound but empty',
      { PLANT_STORE_TOKENS: '' },
      'plant-store: PLANT_STORE_TOKENS: set but holds no token; set it to the accepted tokens, comma-separated, or unset it to have one made and printed',
    ],
    [
      'no PLANT_STORE_TOKENS and no JWT issuer',
      {},
      'plant-store: PLANT_STORE_TOKENS: not bound; bind the accepted tokens, comma-separated, as a secret, or PLANT_STORE_JWT_ISSUER and its companions to verify JWTs',
    ],
  ];
  for (const [name, bindings, line] of cases) {
    it(`${name}: every request is answered 500 with the Error body, and the cause is said in one line naming the binding`, async () => {
      const { baseUrl, firstLine } = await startWorker(bindings);
      const answers = await askThrice(baseUrl);
      expect(answers).toEqual(answers.map(() => ({ status: 500, type: 'application/json', body: { error: 1500, message: 'internal error' } })));
      // How often it is said (once a minute at most) is create-worker.test.ts's to check, on a clock it sets.
      expect(await firstLine()).toBe(line);
    });
  }

  it('with its tokens bound, the same Worker serves', async () => {
    const { baseUrl } = await startWorker({ PLANT_STORE_TOKENS: CONFORMANCE_TOKEN, PLANT_STORE_ACCESS_LOG: 'off' });
    const [created, document, replayed] = await askThrice(baseUrl);
    expect([created?.status, document?.status, replayed?.status]).toEqual([200, 200, 200]);
    expect(created?.body).toEqual({ name: 'Fern' });
  });
});
