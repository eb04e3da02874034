// Runs under vitest on Node: the name of the D1 database file the workerd launcher watches.
import { describe, expect, it } from 'vitest';
import { d1DatabaseFile } from './_d1-database-file.ts';

describe('d1DatabaseFile', () => {
  it("is the file miniflare made for the launcher's database id (seen in a D1 directory of the standalone server)", () => {
    expect(d1DatabaseFile('/srv/d1', 'plant-store')).toBe(
      '/srv/d1/miniflare-D1DatabaseObject/ee99877d9588e5c70379fb92ee13e76297d7acc78bb2ebfdbe58c075dcf21243.sqlite',
    );
  });
});
