// Runs under vitest on Node.
import { describe, expect, it } from 'vitest';
import { formatAccessLog } from './format-access-log.ts';

describe('formatAccessLog', () => {
  it('text: method, path without the query, status and milliseconds, as before; - for what was not read', () => {
    const format = formatAccessLog('text');
    expect(format({ method: 'POST', url: '/plants?token=secret', status: 200, ms: 1.234, requestId: 'abc' })).toBe('POST /plants 200 1.2ms');
    expect(format({ method: undefined, url: undefined, status: 400, ms: 0.25 })).toBe('- - 400 0.3ms');
  });

  it('json: one object per line with time, level, requestId, traceId, method, path (no query), status and ms, in that order', () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const line = formatAccessLog('json')({ method: 'POST', url: '/plants?token=secret', status: 503, ms: 12.345, requestId: 'req-1', traceId });
    expect(line).not.toContain('\n');
    expect(line).not.toContain('secret');
    const parsed = JSON.parse(line) as Record<string, unknown>;
    expect(Object.keys(parsed)).toEqual(['time', 'level', 'requestId', 'traceId', 'method', 'path', 'status', 'ms']);
    expect(parsed).toMatchObject({ level: 'info', requestId: 'req-1', traceId, method: 'POST', path: '/plants', status: 503, ms: 12.3 });
    expect(new Date(parsed['time'] as string).toISOString()).toBe(parsed['time']);
  });

  it('writes the path as the request is routed, the same on every runtime: no scheme or host (nor a password in it), no dot segments', () => {
    const entry = { method: 'GET', url: 'http://user:hunter2@example.com/a/../healthz?x=1', status: 200, ms: 1 } as const;
    expect(formatAccessLog('text')(entry)).toBe('GET /healthz 200 1.0ms');
    const line = formatAccessLog('json')(entry);
    expect(line).not.toContain('hunter2');
    expect(JSON.parse(line)).toMatchObject({ path: '/healthz' });
    expect(JSON.parse(formatAccessLog('json')({ ...entry, url: '/%2e/plants' }))).toMatchObject({ path: '/plants' });
  });

  it('json: null for what is not known (a refusal of a request whose head was not read)', () => {
    expect(JSON.parse(formatAccessLog('json')({ method: undefined, url: undefined, status: 431, ms: 0.04 }))).toMatchObject({
      requestId: null,
      traceId: null,
      method: null,
      path: null,
      status: 431,
      ms: 0,
    });
  });

  it('json: a path that holds quotes or line breaks stays one line of valid JSON', () => {
    const line = formatAccessLog('json')({ method: 'GET', url: '/a"b\r\nc', status: 404, ms: 1 });
    expect(line.split('\n')).toHaveLength(1);
    expect(JSON.parse(line)).toMatchObject({ path: '/a"b\r\nc' });
  });
});
