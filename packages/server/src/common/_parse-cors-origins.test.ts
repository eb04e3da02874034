// Runs under vitest on Node.
import { describe, expect, it } from 'vitest';
import { parseCorsOrigins } from './_parse-cors-origins.ts';

describe('parseCorsOrigins', () => {
  it('is off when unset or empty', () => {
    expect(parseCorsOrigins(undefined)).toEqual([]);
    expect(parseCorsOrigins(' , ')).toEqual([]);
  });

  it('reads origins as browsers send them: lowercase, no default port, no trailing slash, each once', () => {
    expect(parseCorsOrigins(' https://App.Example.com/ , http://localhost:5173,https://app.example.com:443,http://[::1]:8080')).toEqual([
      'https://app.example.com',
      'http://localhost:5173',
      'http://[::1]:8080',
    ]);
  });

  it('takes * alone as every origin', () => {
    expect(parseCorsOrigins(' * ')).toBe('*');
  });

  it.each([
    'https://app.example.com/path',
    'https://app.example.com/?',
    'https://app.example.com#x',
    'ftp://files.example.com',
    'app.example.com',
    'https://u:p@app.example.com',
    'https://a.example:99999',
    '*,https://a.example',
    'null',
  ])('refuses %s, naming the variable and the entry', (value) => {
    expect(() => parseCorsOrigins(value)).toThrow(/^PLANT_STORE_CORS_ORIGINS: expected \* or origins such as https:\/\/app\.example\.com .*got "/);
  });
});
