// Runs under vitest on Node.
import { describe, expect, it } from 'vitest';
import { parseDatabaseUrl, redact } from './_parse-database-url.ts';

describe('parseDatabaseUrl', () => {
  it('reads every documented form', () => {
    expect(parseDatabaseUrl(undefined)).toEqual({ kind: 'default' });
    expect(parseDatabaseUrl('memory:')).toEqual({ kind: 'memory' });
    expect(parseDatabaseUrl('sqlite:plants.db')).toEqual({ kind: 'sqlite', path: 'plants.db' });
    expect(parseDatabaseUrl('sqlite:/var/lib/plants.db')).toEqual({ kind: 'sqlite', path: '/var/lib/plants.db' });
    expect(parseDatabaseUrl('file:///var/lib/my%20plants.db')).toEqual({ kind: 'sqlite', path: '/var/lib/my plants.db' });
    expect(parseDatabaseUrl('file:plants.db')).toEqual({ kind: 'sqlite', path: 'plants.db' });
    expect(parseDatabaseUrl('postgres://u:p@db:5432/plants')).toEqual({ kind: 'postgres', url: 'postgres://u:p@db:5432/plants' });
    expect(parseDatabaseUrl('postgresql://db/plants')).toEqual({ kind: 'postgres', url: 'postgresql://db/plants' });
  });

  it('refuses other schemes and an empty path, naming the variable and never the password', () => {
    expect(() => parseDatabaseUrl('mysql://root:hunter2@db/plants')).toThrow(/^PLANT_STORE_DATABASE_URL: .*mysql:\/\/root:\*\*\*@db\/plants/);
    expect(() => parseDatabaseUrl('mysql://root:hunter2@db/plants')).not.toThrow(/hunter2/);
    expect(() => parseDatabaseUrl('plants.db')).toThrow(/PLANT_STORE_DATABASE_URL/);
    expect(() => parseDatabaseUrl('sqlite:')).toThrow(/needs a file path/);
  });

  it('refuses a value that is set but empty, as an unset deployment secret arrives, rather than falling back to a local file', () => {
    for (const empty of ['', '  ']) {
      expect(() => parseDatabaseUrl(empty)).toThrow(
        'PLANT_STORE_DATABASE_URL: set but empty; set it to memory:, sqlite:PATH, a file: URL or postgres://…, or unset it for the default store',
      );
    }
  });

  it('redacts a password only', () => {
    expect(redact('postgres://u:secret@db:5432/x')).toBe('postgres://u:***@db:5432/x');
    expect(redact('postgres://db/x')).toBe('postgres://db/x');
  });
});
