import { describe, expect, it } from 'vitest';
import { mountPathOption } from './mount-path-option.ts';

describe('mountPathOption', () => {
  it('writes a mount path as the core writes basePath', () => {
    expect(['', '/', '/v1', '/v1/', '/a/b/'].map((path) => mountPathOption('f', path))).toEqual(['', '', '/v1', '/v1', '/a/b']);
    expect(mountPathOption('f', undefined)).toBeUndefined();
  });

  it('refuses a path without its leading slash, or with a query or fragment, naming the factory', () => {
    for (const path of ['v1', '/v1?x', '/v1#x'])
      expect(() => mountPathOption('createFetchHandler', path)).toThrow(/^createFetchHandler: `mountPath` must start/);
  });
});
