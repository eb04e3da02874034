// Runs under vitest on Node: how the workerd launcher's front judges D1's answers by the file they came from.
import { createPlantHandler, staticTokens, type PlantRequest, type PlantStore } from '@plant-store/core';
import { describe, expect, it } from 'vitest';
import { D1_FILE_GONE, D1_FILE_GONE_NOT_READY, d1FileWatch, type FileIdentity } from './_d1-file-watch.ts';

const PATH = '/srv/d1/miniflare-D1DatabaseObject/x.sqlite';

/** A watch over a file whose identity is set by hand, the lines it said, and how many times it looked. */
function watched() {
  let file: FileIdentity | 'missing' | undefined = 'missing';
  let looks = 0;
  const lines: string[] = [];
  const watch = d1FileWatch({
    path: PATH,
    say: (line) => lines.push(line),
    identityOf: (path) => {
      expect(path).toBe(PATH);
      looks++;
      return file;
    },
  });
  return {
    watch,
    lines,
    looks: () => looks,
    set(now: FileIdentity | 'missing' | undefined) {
      file = now;
    },
  };
}

describe('d1FileWatch', () => {
  it('judges nothing before D1 made its file, then adopts the first one an answer of D1 finds, and passes answers while it keeps its name', () => {
    const { watch, lines, set } = watched();
    expect(watch.overrule(200, true)).toBeUndefined();
    set({ dev: 1, ino: 10 });
    expect(watch.overrule(200, false)).toBeUndefined();
    expect(watch.overrule(409, false)).toBeUndefined();
    expect(watch.overrule(200, true)).toBeUndefined();
    expect(lines).toEqual([]);
  });

  it('refuses what D1 answered from its file once the file is removed, until it is back; one line each way', () => {
    const { watch, lines, set } = watched();
    set({ dev: 1, ino: 10 });
    watch.overrule(200, false);
    set('missing');
    for (const status of [200, 409, 507]) expect(watch.overrule(status, false)).toBe(D1_FILE_GONE);
    expect(watch.overrule(200, true)).toBe(D1_FILE_GONE_NOT_READY);
    expect(lines).toEqual([
      `plant-store: the D1 file ${PATH} was removed since workerd opened it; creates are refused until it is back or workerd is started again (restart the server), which opens the file of that name`,
    ]);
    set({ dev: 1, ino: 10 });
    expect(watch.overrule(200, false)).toBeUndefined();
    expect(lines.slice(1)).toEqual([`plant-store: the D1 file ${PATH} is back; creates are served again`]);
  });

  it('refuses once another file has the name, until workerd is started again and an answer of its D1 finds the file it opened', () => {
    const { watch, lines, set } = watched();
    set({ dev: 1, ino: 10 });
    watch.overrule(200, true);
    set({ dev: 1, ino: 11 });
    expect(watch.overrule(200, false)).toBe(D1_FILE_GONE);
    expect(watch.overrule(200, false)).toBe(D1_FILE_GONE);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('was replaced by another file since workerd opened it');
    watch.reopened();
    expect(watch.overrule(200, false)).toBeUndefined();
    expect(lines.slice(1)).toEqual([`plant-store: workerd was started again and opened the D1 file ${PATH}; creates are served again`]);
    set({ dev: 2, ino: 10 });
    expect(watch.overrule(200, false)).toBe(D1_FILE_GONE);
  });

  it("passes on the Worker's answers that did not come from the file without looking, and judges nothing when the path cannot be read", () => {
    const { watch, set, looks } = watched();
    set({ dev: 1, ino: 10 });
    watch.overrule(200, false);
    set('missing');
    const before = looks();
    for (const status of [400, 401, 403, 404, 405, 413, 415, 429, 500, 503]) expect(watch.overrule(status, false)).toBeUndefined();
    expect(watch.overrule(503, true)).toBeUndefined();
    expect(looks()).toBe(before);
    set(undefined);
    expect(watch.overrule(200, false)).toBeUndefined();
  });

  it('answers as the core answers for a SQLite store whose file is gone: a store that fails, byte for byte', async () => {
    const failing = (): never => {
      throw new Error('the SQLite file was removed');
    };
    const store: PlantStore = { insertIfAbsent: failing, get: failing, ready: failing };
    const handle = createPlantHandler({ store, authenticate: staticTokens(['t0ken']), health: true, onError: () => {} });
    const request = (method: string, url: string, body = ''): PlantRequest => ({
      method,
      url,
      header: (name) => ({ authorization: 'Bearer t0ken', 'content-type': 'application/json' })[name],
      readBody: () => ({ ok: true, bytes: new TextEncoder().encode(body) }),
    });
    const created = await handle(request('POST', '/plants', '{"id":1,"name":"Fern"}'));
    expect([created.status, created.body, created.headers['content-type']]).toEqual([
      D1_FILE_GONE.status,
      D1_FILE_GONE.body,
      D1_FILE_GONE.headers['content-type'],
    ]);
    const ready = await handle(request('GET', '/readyz'));
    expect([ready.status, ready.body]).toEqual([D1_FILE_GONE_NOT_READY.status, D1_FILE_GONE_NOT_READY.body]);
  });
});
