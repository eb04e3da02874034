// Runs on Node (vitest): unit tests of responder-settings.ts, the options of a handler checked once.
import { describe, expect, it } from 'vitest';
import { createPlantHandler } from './create-plant-handler.ts';
import { createPlantResponder } from './create-plant-responder.ts';
import type { PlantHandlerOptions } from './plant-handler-options.ts';
import { DEFAULT_MAX_BODY_BYTES, DEFAULT_STORE_TIMEOUT_MS, responderSettings } from './responder-settings.ts';

const valid: PlantHandlerOptions = {
  store: { insertIfAbsent: () => ({ status: 'inserted' }), get: () => Promise.resolve(undefined) },
  authenticate: () => true,
};

describe('responderSettings', () => {
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
      expect(() => responderSettings(options, 'createNodeHandler'), message).toThrow(`createNodeHandler: ${message}`);
      expect(() => createPlantResponder(options), message).toThrow(`createPlantResponder: ${message}`);
      expect(() => createPlantHandler(options), message).toThrow(`createPlantHandler: ${message}`);
    }
  });

  it('gives the defaults and the features off when no option says otherwise', () => {
    const settings = responderSettings(valid, 'createPlantHandler');
    expect([settings.maxBodyBytes, settings.createOptions.timeoutMs, settings.basePath]).toStrictEqual([DEFAULT_MAX_BODY_BYTES, DEFAULT_STORE_TIMEOUT_MS, '']);
    expect([settings.cors, settings.requestIds, settings.ready]).toStrictEqual([undefined, false, undefined]);
    expect(responderSettings({ ...valid, basePath: '/api/' }, 'createPlantHandler').basePath).toBe('/api');
  });
});
