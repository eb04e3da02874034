// Runs on Node (vitest): unit tests of exchange-settings.ts, the options of a handler checked once (the features' through createPlantResponder).
import { describe, expect, it } from 'vitest';
import { createPlantHandler } from '../create-plant-handler.ts';
import { createPlantResponder } from '../create-plant-responder.ts';
import type { PlantHandlerOptions } from '../plant-handler-options.ts';
import { checkOptions, DEFAULT_MAX_BODY_BYTES, DEFAULT_STORE_TIMEOUT_MS, exchangeSettings } from './exchange-settings.ts';

const valid: PlantHandlerOptions = {
  store: { insertIfAbsent: () => ({ status: 'inserted' }), get: () => Promise.resolve(undefined) },
  authenticate: () => true,
};

describe('checkOptions and the features', () => {
  it('names the function that was called and the option at fault', () => {
    const faults: [Partial<Record<keyof PlantHandlerOptions, unknown>>, string][] = [
      [{ store: undefined }, '`store` must be a PlantStore'],
      [{ authenticate: undefined }, '`authenticate` is required'],
      [{ basePath: 'api' }, '`basePath` must start with "/" and hold no query'],
      [{ maxBodyBytes: -1 }, '`maxBodyBytes` must be a non-negative integer'],
      [{ storeTimeoutMs: 1.5 }, '`storeTimeoutMs` must be a non-negative integer'],
      [{ requestId: 'yes' }, '`requestId` must be a boolean'],
      [{ health: 1 }, '`health` must be a boolean'],
      [{ protocolErrors: ['teapot'] }, '`protocolErrors` must be a list of'],
      [{ cors: { origins: [] } }, '`cors.origins` must be "*" or a non-empty list'],
      [{ cors: { origins: ['https://a.example/'] } }, '`cors.origins[0]` must be an origin'],
      [{ docs: { html: 1 } }, '`docs` must be a DocsPage'],
      [{ docs: { html: '', files: { '../x': { contentType: 'text/plain', body: '' } } } }, '`docs.files["../x"]`: a file name'],
    ];
    for (const [fault, message] of faults) {
      const options = { ...valid, ...fault } as PlantHandlerOptions;
      expect(() => createPlantResponder(options, 'createNodeHandler'), message).toThrow(`createNodeHandler: ${message}`);
      expect(() => createPlantResponder(options), message).toThrow(`createPlantResponder: ${message}`);
      expect(() => createPlantHandler(options), message).toThrow(`createPlantHandler: ${message}`);
    }
  });

  it("names the handler's own option first when a feature's is at fault too", () => {
    const options = { ...valid, health: 1, cors: { origins: [] }, protocolErrors: ['teapot'] } as unknown as PlantHandlerOptions;
    expect(() => createPlantResponder(options)).toThrow('createPlantResponder: `protocolErrors` must be a list of');
  });

  it('gives the defaults when no option says otherwise', () => {
    const checked = checkOptions(valid, 'createPlantHandler');
    expect([checked.maxBodyBytes, checked.createOptions.timeoutMs, checked.basePath, checked.requestIds]).toStrictEqual([
      DEFAULT_MAX_BODY_BYTES,
      DEFAULT_STORE_TIMEOUT_MS,
      '',
      false,
    ]);
    expect(checkOptions({ ...valid, basePath: '/api/' }, 'createPlantHandler').basePath).toBe('/api');
    const settings = exchangeSettings(checked, () => undefined, undefined);
    expect([settings.body.maxBytes, JSON.parse(settings.body.tooLarge.body)]).toStrictEqual([
      DEFAULT_MAX_BODY_BYTES,
      { error: 1400, message: `body: larger than the limit of ${DEFAULT_MAX_BODY_BYTES} bytes` },
    ]);
  });
});
