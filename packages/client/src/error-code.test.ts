// Runs under vitest on Node: the client's codes against the core's error table.
import { errorTable } from '@plant-store/core';
import { describe, expect, it } from 'vitest';
import { ErrorCode, isServerErrorCode } from './error-code.ts';

describe('ErrorCode', () => {
  it("holds exactly the server's error codes, besides the client's own", () => {
    const numeric = Object.values(ErrorCode).filter((code) => typeof code === 'number');
    const server = Object.values(errorTable).map(({ code }) => code);
    expect([...numeric].sort()).toEqual([...server].sort());
    expect(Object.values(ErrorCode).filter((code) => typeof code === 'string')).toEqual([
      'network',
      'timeout',
      'aborted',
      'invalid-input',
      'unexpected-response',
      'redirected',
      'plant-mismatch',
      'answer-too-large',
    ]);
  });

  it('tells known server codes from anything else', () => {
    expect([1300, 1501, 9999, '1300', 'network', undefined].map(isServerErrorCode)).toEqual([true, true, false, false, false, false]);
  });
});
