// Runs on Node (vitest): node URLs, their credentials, and the refusals, whose messages never hold a password.
import { describe, expect, it } from 'vitest';
import { parseNodeUrl } from './parse-node-url.ts';

describe('parseNodeUrl', () => {
  it('keeps the origin alone, with or without a trailing slash', () => {
    expect(parseNodeUrl('http://127.0.0.1:4001')).toEqual({ origin: 'http://127.0.0.1:4001' });
    expect(parseNodeUrl('https://db1.internal:4001/')).toEqual({ origin: 'https://db1.internal:4001' });
  });

  it('makes user:password a Basic authorization of their UTF-8 bytes, percent-decoded', () => {
    expect(parseNodeUrl('http://bob:s3cret@127.0.0.1:4001')).toEqual({ origin: 'http://127.0.0.1:4001', authorization: 'Basic Ym9iOnMzY3JldA==' });
    const { authorization } = parseNodeUrl('http://b%C3%B6b:p%3As%40s@127.0.0.1:4001');
    expect(Buffer.from(authorization!.slice('Basic '.length), 'base64').toString('utf8')).toBe('böb:p:s@s');
  });

  it.each([
    ['not a url', /is not a URL/],
    ['postgres://127.0.0.1:5432', /must be an http: or https: URL/],
    ['http://127.0.0.1:4001/db', /without a path, query or fragment/],
    ['http://127.0.0.1:4001?level=strong', /without a path, query or fragment/],
  ])('refuses %s', (url, message) => {
    expect(() => parseNodeUrl(url)).toThrow(message);
  });

  it('names no password when it refuses a URL', () => {
    expect(() => parseNodeUrl('ftp://bob:hunter2@127.0.0.1:4001')).toThrow('ftp://bob:***@127.0.0.1:4001');
    expect(() => parseNodeUrl('http://bob:hunter2@127.0.0.1:4001/x')).not.toThrow(/hunter2/);
    // A password with an unencoded / or @ is hidden whole.
    expect(() => parseNodeUrl('http://bob:hunter/2@127.0.0.1:4001')).toThrow('http://bob:***@127.0.0.1:4001');
    expect(() => parseNodeUrl('http://bob:hunter/2@127.0.0.1:4001')).not.toThrow(/hunter/);
    expect(() => parseNodeUrl('ftp://bob:p@ss@127.0.0.1:4001')).toThrow('ftp://bob:***@127.0.0.1:4001');
  });
});
