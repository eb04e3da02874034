// Runs on Node (vitest): unit tests of adopt-thenable.ts.
import { describe, expect, it } from 'vitest';
import { adoptThenable } from './adopt-thenable.ts';
import type { Thenable } from '../domain/is-thenable.ts';

/** What `adoptThenable` called back for `waited`, now and after the timers ran. */
async function heardFrom(waited: Thenable<string>) {
  const heard: string[] = [];
  adoptThenable(
    waited,
    'context',
    (context, value) => heard.push(`${context} value ${value}`),
    (context, error) => heard.push(`${context} failure ${(error as Error).message}`),
  );
  const atOnce = [...heard];
  await new Promise((resolve) => setTimeout(resolve, 5));
  return { atOnce, heard };
}

describe('adoptThenable', () => {
  it('goes on with a promise once it settles, never before', async () => {
    expect(await heardFrom(Promise.resolve('a'))).toStrictEqual({ atOnce: [], heard: ['context value a'] });
    expect(await heardFrom(Promise.reject(new Error('no')))).toStrictEqual({ atOnce: [], heard: ['context failure no'] });
  });

  it('goes on inside then when a thenable calls back at once: no microtask turn', async () => {
    expect(await heardFrom({ then: (onValue) => onValue('now') })).toStrictEqual({ atOnce: ['context value now'], heard: ['context value now'] });
  });

  it('hears the first call back only, whatever a thenable calls or throws after it', async () => {
    const cases: Record<string, Thenable<string>> = {
      'twice, then fails': {
        then: (onValue, onError) =>
          setTimeout(() => {
            onValue('first');
            onValue('second');
            onError?.(new Error('late'));
          }, 0),
      },
      'throws after calling back': {
        then: (onValue) => {
          onValue('first');
          throw new Error('after the fact');
        },
      },
      'fails, then calls back': {
        then: (onValue, onError) => {
          onError?.(new Error('first'));
          onValue('second');
        },
      },
    };
    const heard: Record<string, string[]> = {};
    for (const [name, waited] of Object.entries(cases)) heard[name] = (await heardFrom(waited)).heard;
    expect(heard).toStrictEqual({
      'twice, then fails': ['context value first'],
      'throws after calling back': ['context value first'],
      'fails, then calls back': ['context failure first'],
    });
  });

  it('takes a then that throws before calling back as a failure', async () => {
    const broken: Thenable<string> = {
      then: () => {
        throw new Error('broken');
      },
    };
    expect(await heardFrom(broken)).toStrictEqual({ atOnce: ['context failure broken'], heard: ['context failure broken'] });
  });
});
