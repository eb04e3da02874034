// Runs under vitest on Node.
import type { ErrorContext, PlantRequest } from '@plant-store/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { standaloneErrorLog } from './_standalone-error-log.ts';

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
      traceId: null,
      method: 'POST',
      path: '/plants',
      kind: 'storage-unavailable',
      error: 'Error: insert failed (cause: TypeError: connection refused)',
    });
  });

  it("json: the path as the request is routed, without an absolute-form target's scheme, host and password", () => {
    const written = vi.spyOn(console, 'error').mockImplementation(() => {});
    const absolute = { ...request, url: 'http://user:hunter2@example.com/a/../plants?x=1' };
    standaloneErrorLog('json')(new Error('boom'), { ...context, request: absolute });
    const line = written.mock.calls[0]![0] as string;
    expect(line).not.toContain('hunter2');
    expect(JSON.parse(line)).toMatchObject({ path: '/plants' });
  });

  it('json: the trace id of a valid traceparent', () => {
    const written = vi.spyOn(console, 'error').mockImplementation(() => {});
    const traced = { ...request, header: (name: string) => (name === 'traceparent' ? '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' : undefined) };
    standaloneErrorLog('json')(new Error('boom'), { ...context, request: traced });
    expect(JSON.parse(written.mock.calls[0]![0] as string)).toMatchObject({ traceId: '4bf92f3577b34da6a3ce929d0e0e4736' });
  });

  it('text: the line operators know, with the request id, and the error as the console shows it', () => {
    const written = vi.spyOn(console, 'error').mockImplementation(() => {});
    const failure = new Error('boom');
    standaloneErrorLog('text')(failure, context);
    expect(written).toHaveBeenCalledWith('plant-store: unexpected error (request req-7)', failure);
  });

  it('errors alike are written once, then counted: one summary line per window, in either format', () => {
    vi.useFakeTimers();
    try {
      const written = vi.spyOn(console, 'error').mockImplementation(() => {});
      const text = standaloneErrorLog('text', 1_000);
      const json = standaloneErrorLog('json', 1_000);
      for (let i = 0; i < 500; i++) {
        const failure = new Error('database or disk is full');
        text(failure, { ...context, requestId: `req-${i}` });
        json(failure, { ...context, requestId: `req-${i}` });
      }
      expect(written).toHaveBeenCalledTimes(2);
      vi.advanceTimersByTime(1_000);
      expect(written).toHaveBeenCalledTimes(4);
      expect(written.mock.calls[2]![0]).toBe('plant-store: 499 more like it in the last 1 s: Error: database or disk is full');
      expect(JSON.parse(written.mock.calls[3]![0] as string)).toMatchObject({
        level: 'error',
        msg: 'plant-store: repeated error',
        count: 499,
        seconds: 1,
        kind: 'storage-unavailable',
        error: 'Error: database or disk is full',
      });
      // Another kind of failure is not hidden behind the first.
      text(new Error('disk I/O error'), context);
      expect(written).toHaveBeenCalledTimes(5);
    } finally {
      vi.useRealTimers();
    }
  });
});
