// Runs under vitest on Node.
import { describe, expect, it } from 'vitest';
import { OFF_WORDS, ON_WORDS, parseSwitch } from './_parse-switch.ts';

describe('parseSwitch', () => {
  it('takes on/off, true/false, yes/no and 1/0 in any case, with spaces around', () => {
    for (const word of ON_WORDS) {
      expect(parseSwitch('X', word, false)).toBe(true);
      expect(parseSwitch('X', ` ${word.toUpperCase()} `, false)).toBe(true);
    }
    for (const word of OFF_WORDS) {
      expect(parseSwitch('X', word, true)).toBe(false);
      expect(parseSwitch('X', ` ${word.toUpperCase()} `, true)).toBe(false);
    }
  });

  it('is the fallback when unset or empty', () => {
    expect([parseSwitch('X', undefined, true), parseSwitch('X', '', false), parseSwitch('X', '  ', true)]).toEqual([true, false, true]);
  });

  it('refuses any other word in one line naming the variable and the words it takes', () => {
    expect(() => parseSwitch('PLANT_STORE_DOCS', ' maybe ', true)).toThrow(
      new TypeError('PLANT_STORE_DOCS: expected on or off (or true/false, yes/no, 1/0), got "maybe"'),
    );
    expect(() => parseSwitch('PLANT_STORE_ACCESS_LOG', 'disabled', true)).toThrow(/^PLANT_STORE_ACCESS_LOG: /);
    expect(() => parseSwitch('X', 'o n', true)).toThrow(/got "o n"$/);
  });
});
