// Runs on Node (vitest): unit tests of plant-exchange.ts, the answer-now-or-Later protocol of the responder's steps.
import { describe, expect, it } from 'vitest';
import { fail } from '../domain/failure.ts';
import type { PlantRequest, PlantResponse } from './http-types.ts';
import type { ErrorContext } from './plant-exchange.ts';
import { answer, answerAfter, internalError, PlantExchange, reportFailure, type Later, type Outcome, type Step } from './plant-exchange.ts';
import { checkOptions, exchangeSettings } from './exchange-settings.ts';

const request: PlantRequest = { method: 'GET', url: '/x', header: () => undefined, readBody: () => ({ ok: true, bytes: new Uint8Array(0) }) };
const OK: PlantResponse = { status: 200, headers: { 'content-type': 'text/plain' }, body: 'ok' };
const LATE: PlantResponse = { status: 202, headers: {}, body: 'late' };

/** Runs `first` over a new exchange: the answers given before `answer` returned, all of them after a few turns, and what onError got. */
async function run(first: (exchange: PlantExchange) => Outcome, options: { requestId?: string; headers?: Record<string, string> } = {}) {
  const errors: [string, ErrorContext['kind']][] = [];
  const settings = exchangeSettings(
    checkOptions(
      {
        store: { insertIfAbsent: () => ({ status: 'inserted' }), get: () => Promise.resolve(undefined) },
        authenticate: () => true,
        onError: (error, context) => errors.push([(error as Error).message, context.kind]),
      },
      'test',
    ),
    () => undefined,
    undefined,
  );
  const answers: PlantResponse[] = [];
  answer(new PlantExchange(settings, request, undefined, options.requestId, options.headers, undefined, (response) => answers.push(response)), first);
  const atOnce = answers.length;
  await new Promise((resolve) => setTimeout(resolve, 5));
  return { atOnce, answers, errors };
}

describe('PlantExchange', () => {
  it('answers with what the first step returns, before answer() returns, with the exchange headers and request id', async () => {
    const { atOnce, answers } = await run(() => OK, { requestId: 'req-1', headers: { vary: 'Origin' } });
    expect(atOnce).toBe(1);
    expect(answers).toStrictEqual([{ ...OK, headers: { 'content-type': 'text/plain', vary: 'Origin', 'x-request-id': 'req-1' } }]);
    // Without headers to add, the answer is sent as it is.
    expect((await run(() => OK)).answers[0]).toBe(OK);
  });

  it('answers a Later once what it waits for settles, through every step it names', async () => {
    const second: Step<string> = (_exchange, value) => ({ ...LATE, body: value });
    const first: Step<number> = (exchange, value) => answerAfter(exchange, Promise.resolve(`waited ${value}`), second);
    const { atOnce, answers } = await run((exchange) => answerAfter(exchange, Promise.resolve(1), first), { requestId: 'req-2' });
    expect(atOnce).toBe(0);
    expect(answers).toStrictEqual([{ ...LATE, headers: { 'x-request-id': 'req-2' }, body: 'waited 1' }]);
  });

  it('turns a throwing step or a rejection into one reported 500 (1500)', async () => {
    const throwing = () => {
      throw new Error('step failed');
    };
    const cases: Record<string, (exchange: PlantExchange) => Outcome> = {
      'first step throws': throwing,
      'later step throws': (exchange) => answerAfter(exchange, Promise.resolve(), throwing),
      'wait rejects': (exchange) => answerAfter(exchange, Promise.reject(new Error('store down')), () => OK),
    };
    for (const [name, first] of Object.entries(cases)) {
      const { answers, errors } = await run(first);
      expect(
        answers.map((answer) => [answer.status, JSON.parse(answer.body).error]),
        name,
      ).toStrictEqual([[500, 1500]]);
      expect(errors, name).toStrictEqual([[name === 'wait rejects' ? 'store down' : 'step failed', 'internal']]);
    }
  });

  it('answers once when a step arranges an answer and returns another anyway, and reports the one dropped', async () => {
    const { answers, errors } = await run((exchange) => {
      answerAfter(exchange, Promise.resolve(), () => LATE);
      return OK;
    });
    expect(answers).toStrictEqual([OK]);
    expect(errors).toStrictEqual([['plant-store: a second answer to one request was dropped', 'internal']]);
    // Nor can a step start its own exchange over.
    const again = await run((exchange) => {
      answer(exchange, () => LATE);
      return OK;
    });
    expect(again.answers).toStrictEqual([OK]);
    expect(again.errors).toStrictEqual([['plant-store: an exchange was started twice', 'internal']]);
  });

  it('reports a respond that throws after a wait, and lets one that throws at once throw to its caller', async () => {
    const settings = exchangeSettings(
      checkOptions(
        {
          store: { insertIfAbsent: () => ({ status: 'inserted' }), get: () => Promise.resolve(undefined) },
          authenticate: () => true,
          onError: (error) => errors.push(error),
        },
        'test',
      ),
      () => undefined,
      undefined,
    );
    const errors: unknown[] = [];
    const throwing = () => {
      throw new Error('write failed');
    };
    expect(() => answer(new PlantExchange(settings, request, undefined, undefined, undefined, undefined, throwing), () => OK)).toThrow('write failed');
    answer(new PlantExchange(settings, request, undefined, undefined, undefined, undefined, throwing), (exchange) =>
      answerAfter(exchange, Promise.resolve(), () => OK),
    );
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(errors.map((error) => (error as Error).message)).toStrictEqual(['write failed']);
  });

  it('labels a failure handed to onError with its own kind: the store is unavailable or full, anything else internal', async () => {
    const cause = new Error('cause');
    const kinds = ['storage-unavailable', 'storage-full', 'conflict'] as const;
    const { answers, errors } = await run((exchange) => {
      const responses = kinds.map((kind) => reportFailure(exchange, fail(kind, kind, cause).error));
      reportFailure(exchange, fail('storage-unavailable', 'no cause').error);
      internalError(exchange, cause);
      return responses[1]!;
    });
    expect(answers.map((answer) => answer.status)).toStrictEqual([507]);
    expect(errors).toStrictEqual([
      ['cause', 'storage-unavailable'],
      ['cause', 'storage-full'],
      ['cause', 'internal'],
      ['cause', 'internal'],
    ]);
  });

  it('lets a step answer only by returning a response or the Later of answerAfter', () => {
    // Compile-time checks: each line marked would compile if the protocol leaked.
    // @ts-expect-error a step that returns nothing would leave the request hanging
    const hangs: (exchange: PlantExchange) => Outcome = () => undefined;
    // @ts-expect-error a Later cannot be made up: only answerAfter gives one
    const madeUp: Later = {} as { readonly arranged: true };
    // @ts-expect-error the exchange does not hand out respond
    const answersItself = (exchange: PlantExchange) => exchange.respond(OK);
    const waits: (exchange: PlantExchange) => Later = (exchange) => answerAfter(exchange, Promise.resolve(), () => OK);
    expect([hangs, madeUp, answersItself, waits]).toHaveLength(4);
  });
});
