import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { routePath } from './route-path.ts';

describe('routePath', () => {
  it('drops the query and a fragment, and leaves plain paths alone', () => {
    expect(routePath('/plants')).toBe('/plants');
    expect(routePath('/plants?x=1')).toBe('/plants');
    expect(routePath('/plants#top')).toBe('/plants');
    expect(routePath('/openapi.json')).toBe('/openapi.json');
    expect(routePath('/plants/')).toBe('/plants/');
  });

  it('reads absolute-form as its path, whatever the authority (RFC 9112 §3.2.2)', () => {
    expect(routePath('http://example.com/plants')).toBe('/plants');
    expect(routePath('HTTPS://user@example.com:8443/plants?x=/y')).toBe('/plants');
    expect(routePath('http://[::1]:8080/v1/plants')).toBe('/v1/plants');
    expect(routePath('http://example.com')).toBe('/');
    expect(routePath('http://example.com?plants')).toBe('/');
    expect(routePath('http://example.com/a/../plants')).toBe('/plants');
  });

  it('removes dot segments, %2e in any case counting as a dot and \\ as a /, as the WHATWG URL parser does', () => {
    const cases: [string, string][] = [
      ['/./plants', '/plants'],
      ['/a/../plants', '/plants'],
      ['/%2e/plants', '/plants'],
      ['/%2E/plants', '/plants'],
      ['/x/%2e%2E/plants', '/plants'],
      ['/x/.%2e/plants', '/plants'],
      ['/x/%2e./plants', '/plants'],
      ['/../../plants', '/plants'],
      ['/plants/.', '/plants/'],
      ['/plants/..', '/'],
      ['/a/b/../../plants?x=1', '/plants'],
      ['/.../plants', '/.../plants'],
      ['/%2e%2e%2e/plants', '/%2e%2e%2e/plants'],
      ['/%70lants', '/%70lants'],
      ['/plants%2F..', '/plants%2F..'],
      ['/.plants', '/.plants'],
      ['/a\\..\\plants', '/plants'],
      ['/plants\\', '/plants/'],
    ];
    for (const [target, path] of cases) expect(routePath(target), target).toBe(path);
  });

  it('leaves targets that are neither origin- nor absolute-form as they are', () => {
    expect(routePath('*')).toBe('*');
    expect(routePath('plants')).toBe('plants');
    expect(routePath('')).toBe('');
  });

  it('agrees with the WHATWG URL parser on the path of any origin-form target made of dots, %2e and names', () => {
    const segment = fc.constantFrom('.', '..', '%2e', '%2E', '.%2e', '%2e.', '%2E%2e', 'plants', 'a', '', '...', '%2f', '\\', '..\\.', 'a\\%2e%2e');
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 8 }), (segments) => {
        const target = `/${segments.join('/')}`;
        // Appended to an origin, so that `//a` is a path and not a scheme-relative URL.
        expect(routePath(target)).toBe(new URL(`http://x${target}`).pathname);
      }),
      { numRuns: 2000 },
    );
  });
});
