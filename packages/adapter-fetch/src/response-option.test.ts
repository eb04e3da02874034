import { describe, expect, it } from 'vitest';
import { staticTokens } from '@plant-store/core';
import { createMemoryStore } from '@plant-store/store-memory';
import { createFetchHandler } from './create-fetch-handler.ts';

/** A Response class that, like @whatwg-node's, keeps the headers object it is given and adds to it. */
class KeepingResponse extends Response {
  static readonly given: Record<string, string>[] = [];
  constructor(body: BodyInit | null, init: ResponseInit & { headers: Record<string, string> }) {
    init.headers['x-added-by-class'] = String(KeepingResponse.given.length);
    KeepingResponse.given.push(init.headers);
    super(body, init);
  }
}

describe('createFetchHandler({ Response })', () => {
  it('answers with the given class, handing it headers of its own each time', async () => {
    const fetch = createFetchHandler({ store: createMemoryStore(), authenticate: staticTokens(['t']), Response: KeepingResponse as typeof Response });
    const first = await fetch(new Request('http://localhost/openapi.json'));
    const second = await fetch(new Request('http://localhost/nowhere'));
    const third = await fetch(new Request('http://localhost/openapi.json'));
    expect([first, second, third].every((response) => response instanceof KeepingResponse)).toBe(true);
    expect([first.status, second.status, third.status]).toEqual([200, 404, 200]);
    // What the class added to one answer's headers never reaches the next one.
    expect(third.headers.get('x-added-by-class')).toBe('2');
    expect(KeepingResponse.given[0]).not.toBe(KeepingResponse.given[2]);
    expect(third.headers.get('content-type')).toBe('application/json');
  });

  it('refuses a Response that is not a class', () => {
    expect(() => createFetchHandler({ store: createMemoryStore(), authenticate: staticTokens(['t']), Response: 'nope' as unknown as typeof Response })).toThrow(
      /`Response` must be a Response class/,
    );
  });
});
