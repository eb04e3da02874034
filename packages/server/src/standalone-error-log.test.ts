import type { ErrorContext, PlantRequest } from '@plant-store/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { standaloneErrorLog } from './standalone-error-log.ts';

const request = {
  method: 'POST',
  url: '/plants?token=secret',
  header: () => 'Bearer s3cret',
  readBody: async () => ({ ok: false, reason: 'aborted' }),
} as PlantRequest;
const context: ErrorContext = { request, kind: 'storage-unavailable', requestId: 'req-7' };

describe('standaloneErrorLog', () => {
  afterEach(() => vi.restoreAllMocks());

  it('json: one line at level error with the request id, method, path without query, kind and the error with its causes, no stack', () => {
    const written = vi.spyOn(console, 'error').mockImplementation(() => {});
    const failure = new Error('insert failed', { cause: new TypeError('connection refused') });
    standaloneErrorLog('json')(failure, context);
    expect(written).toHaveBeenCalledTimes(1);
    const line = written.mock.calls[0]![0] as string;
    expect(line).not.toContain('\n');
    expect(line).not.toMatch(/secret|s3cret|\bat /);
    expect(JSON.parse(line)).toMatchObject({
      level: 'error',
      msg: 'plant-store: unexpected error',
      requestId: 'req-7',
      method: 'POST',
      path: '/plants',
      kind: 'storage-unavailable',
      error: 'Error: insert failed (cause: TypeError: connection refused)',
    });
  });

  it('text: the line operators know, with the request id, and the error as the console shows it', () => {
    const written = vi.spyOn(console, 'error').mockImplementation(() => {});
    const failure = new Error('boom');
    standaloneErrorLog('text')(failure, context);
    expect(written).toHaveBeenCalledWith('plant-store: unexpected error (request req-7)', failure);
  });
});
