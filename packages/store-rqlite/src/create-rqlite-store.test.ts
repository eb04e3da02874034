// Runs on Node (vitest): what createRqliteStore refuses at construction, before any request.
import { describe, expect, it } from 'vitest';
import { createRqliteStore } from './create-rqlite-store.ts';

describe('createRqliteStore options', () => {
  it.each([
    [{ urls: [] }, /at least one node/],
    [{ urls: 'http://127.0.0.1:4001' as unknown as string[] }, /must be an array/],
    [{ urls: ['http://127.0.0.1:4001'], table: 'Plants' }, /plain lowercase identifier/],
    [{ urls: ['http://127.0.0.1:4001'], table: 'sqlite_master' }, /plain lowercase identifier/],
    [{ urls: ['http://127.0.0.1:4001'], timeoutMs: 0 }, /timeoutMs/],
    [{ urls: ['http://127.0.0.1:4001'], attemptTimeoutMs: Number.NaN }, /attemptTimeoutMs/],
    [{ urls: ['http://127.0.0.1:4001'], readLevel: 'none' as 'weak' }, /readLevel/],
  ])('refuses %j', (options, message) => {
    expect(() => createRqliteStore(options)).toThrow(message);
  });

  it('sends nothing at construction', () => {
    let sent = 0;
    createRqliteStore({ urls: ['http://127.0.0.1:4001'], fetch: (() => (sent++, Promise.reject(new Error('no')))) as unknown as typeof fetch });
    expect(sent).toBe(0);
  });
});
