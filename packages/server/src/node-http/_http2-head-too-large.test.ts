// Runs under vitest on Node: an HTTP/2 head counted as node:http's parser counts an HTTP/1.1 one.
import { describe, expect, it } from 'vitest';
import { http2HeadTooLarge } from './_http2-head-too-large.ts';

const base = [':method', 'POST', ':path', '/plants', ':scheme', 'https', ':authority', 'localhost:8443'];
const counted = '/plants'.length + 'host'.length + 'localhost:8443'.length;

describe('http2HeadTooLarge', () => {
  it('refuses 16,384 counted bytes of target, names and values, and takes 16,383', () => {
    const padded = (extra: number) => [...base, 'x-padding', 'a'.repeat(16_383 - counted - 'x-padding'.length + extra)];
    expect(http2HeadTooLarge(padded(0))).toBe(false);
    expect(http2HeadTooLarge(padded(1))).toBe(true);
  });

  it('refuses more than 1,000 fields, Host among them', () => {
    const fields = (count: number) => [...base, ...Array.from({ length: count }, (_, i) => [`x-${i}`, 'v']).flat()];
    expect(http2HeadTooLarge(fields(999))).toBe(false);
    expect(http2HeadTooLarge(fields(1_000))).toBe(true);
  });

  it('counts cookie crumbs as the one Cookie field HTTP/1.1 sends, joined by "; "', () => {
    const crumbs = (count: number) => [...base, ...Array.from({ length: count }, () => ['cookie', 'c']).flat()];
    expect(http2HeadTooLarge(crumbs(1_500))).toBe(false);
    // One Cookie field of two crumbs: 'cookie', the first, '; ' and the second ('c').
    const two = (extra: number) => [...base, 'cookie', 'c'.repeat(16_383 - counted - 'cookie'.length - '; c'.length + extra), 'cookie', 'c'];
    expect(http2HeadTooLarge(two(0))).toBe(false);
    expect(http2HeadTooLarge(two(1))).toBe(true);
  });
});
