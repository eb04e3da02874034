// Runs under vitest on Node: the V8 flags the workerd launcher hands miniflare.
import { describe, expect, it } from 'vitest';
import { WORKERD_V8_FLAGS, workerdV8Flags } from './_workerd-v8-flags.ts';

describe('workerdV8Flags', () => {
  it('is the young-generation flag alone when none are given, or only spaces', () => {
    expect(workerdV8Flags(undefined)).toBe(WORKERD_V8_FLAGS);
    expect(workerdV8Flags('')).toBe(WORKERD_V8_FLAGS);
    expect(workerdV8Flags(' \t ')).toBe(WORKERD_V8_FLAGS);
  });

  it('puts the flags given after it, one space apart, so that theirs win', () => {
    expect(workerdV8Flags('  --max-old-space-size=512   --max-semi-space-size=8 ')).toBe(
      `${WORKERD_V8_FLAGS} --max-old-space-size=512 --max-semi-space-size=8`,
    );
  });

  it('adds nothing to flags that already start with it', () => {
    const once = workerdV8Flags('--stack-size=984');
    expect(workerdV8Flags(once)).toBe(once);
  });
});
