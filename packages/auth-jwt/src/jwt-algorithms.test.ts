// Runs in vitest on Node: unit tests of jwt-algorithms.ts.
import { describe, expect, it } from 'vitest';
import { isJwtAlgorithm, JWT_ALGORITHMS } from './jwt-algorithms.ts';

describe('JWT_ALGORITHMS', () => {
  it('holds no unsecured and no symmetric algorithm', () => {
    for (const name of ['none', 'None', 'HS256', 'HS384', 'HS512', 'dir', '']) expect(isJwtAlgorithm(name), name).toBe(false);
    for (const name of JWT_ALGORITHMS) expect(name).toMatch(/^(RS|PS|ES)(256|384|512)$|^EdDSA$|^Ed25519$/);
  });
});
