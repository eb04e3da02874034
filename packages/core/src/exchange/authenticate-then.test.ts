// Runs on Node (vitest): unit tests of authenticate-then.ts, the bearer check before the create and metrics routes.
import { describe, expect, it } from 'vitest';
import { authenticateThen } from './authenticate-then.ts';
import type { PlantRequest, PlantResponse } from './http-types.ts';
import { answer, PlantExchange } from './plant-exchange.ts';
import { checkOptions, exchangeSettings } from './exchange-settings.ts';

const OK: PlantResponse = { status: 200, headers: {}, body: 'let in' };

/** Runs authenticateThen for a request with `authorization`: the verdicts `then` got, and the answers given (after a few turns). */
async function check(authorization: string | undefined, verify: (token: string) => unknown) {
  const request: PlantRequest = {
    method: 'POST',
    url: '/plants',
    header: (name) => (name === 'authorization' ? authorization : undefined),
    readBody: () => ({ ok: true, bytes: new Uint8Array(0) }),
  };
  const asked: string[] = [];
  const settings = exchangeSettings(
    checkOptions(
      {
        store: { insertIfAbsent: () => ({ status: 'inserted' }), get: () => Promise.resolve(undefined) },
        authenticate: (token) => {
          asked.push(token);
          return verify(token) as boolean;
        },
        onError: () => {},
      },
      'test',
    ),
    () => undefined,
    undefined,
  );
  const verdicts: unknown[] = [];
  const answers: { status: number; error?: number }[] = [];
  const exchange = new PlantExchange(settings, request, undefined, undefined, undefined, undefined, (response) =>
    answers.push({ status: response.status, ...(response.status === 200 ? {} : { error: JSON.parse(response.body).error }) }),
  );
  answer(exchange, (exchange) =>
    authenticateThen(exchange, (_exchange, verdict) => {
      verdicts.push(verdict);
      return OK;
    }),
  );
  const atOnce = answers.length;
  await new Promise((resolve) => setTimeout(resolve, 5));
  return { asked, verdicts, answers, atOnce };
}

describe('authenticateThen', () => {
  it('answers 401 (1100) without credentials and 401 (1101) for a credential that is no token, never asking the verifier', async () => {
    for (const [authorization, error] of [
      [undefined, 1100],
      ['Basic dTpw', 1100],
      ['Bearer ', 1100],
      ['Bearer a, Bearer b', 1101],
    ] as const) {
      const { asked, verdicts, answers } = await check(authorization, () => true);
      expect({ authorization, asked, verdicts, answers }).toEqual({ authorization, asked: [], verdicts: [], answers: [{ status: 401, error }] });
    }
  });

  it("hands the verifier's verdict to the next step at once, or once it settles", async () => {
    const now = await check('Bearer s3cret', () => ({ refused: 'invalid-token' }));
    expect(now).toEqual({ asked: ['s3cret'], verdicts: [{ refused: 'invalid-token' }], answers: [{ status: 200 }], atOnce: 1 });
    const later = await check('Bearer s3cret', () => Promise.resolve(true));
    expect(later).toEqual({ asked: ['s3cret'], verdicts: [true], answers: [{ status: 200 }], atOnce: 0 });
  });
});
