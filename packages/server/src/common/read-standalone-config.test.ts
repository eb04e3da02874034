// Runs under vitest on Node.
import { describe, expect, it } from 'vitest';
import { accessLogLine } from './access-log.ts';
import { readStandaloneConfig } from './read-standalone-config.ts';
import { plaintextLine, startupLines } from './startup-lines.ts';

const noRequest = undefined as never;

describe('readStandaloneConfig', () => {
  it('defaults to 127.0.0.1:8080 with a generated token that alone is accepted', async () => {
    const config = readStandaloneConfig({});
    expect([config.host, config.port, config.accessLog]).toEqual(['127.0.0.1', 8080, true]);
    expect(config.generatedToken).toMatch(/^[0-9a-f]{48}$/);
    expect(await config.authenticate(config.generatedToken!, noRequest)).toBe(true);
    expect(await config.authenticate('other', noRequest)).toBe(false);
    expect(readStandaloneConfig({}).generatedToken).not.toBe(config.generatedToken);
    expect(startupLines(config, 'http://127.0.0.1:8080', { description: 'memory' })[1]).toContain(config.generatedToken);
    expect(config.store).toEqual({ kind: 'default' });
  });

  it('reads HOST, PORT, comma-separated tokens and the access-log switch', async () => {
    const config = readStandaloneConfig({ HOST: '0.0.0.0', PORT: '0', PLANT_STORE_TOKENS: ' one, two ,', PLANT_STORE_ACCESS_LOG: 'OFF' });
    expect([config.host, config.port, config.accessLog, config.generatedToken]).toEqual(['0.0.0.0', 0, false, undefined]);
    expect(await config.authenticate('one', noRequest)).toBe(true);
    expect(await config.authenticate('two', noRequest)).toBe(true);
    expect(await config.authenticate('', noRequest)).toBe(false);
    // 0.0.0.0 without TLS: the plaintext warning follows the other lines.
    expect(startupLines(config, 'http://x', { description: 'sqlite at /srv/plants.db' })).toEqual([
      'plant-store listening on http://x (store: sqlite at /srv/plants.db)',
      plaintextLine('0.0.0.0'),
    ]);
    expect(startupLines(config, 'http://x', { description: 'memory', warning: 'lost at exit' })).toEqual([
      'plant-store listening on http://x (store: memory)',
      'lost at exit',
      plaintextLine('0.0.0.0'),
    ]);
    const withDatabase = readStandaloneConfig({ PLANT_STORE_TOKENS: 'one', PLANT_STORE_DATABASE_URL: 'postgres://u:secret@db/plants' });
    expect(withDatabase.store).toEqual({ kind: 'postgres', url: 'postgres://u:secret@db/plants' });
  });

  it('warns of plain HTTP on an address other than loopback, unless TLS ends at a proxy (PLANT_STORE_TLS_PROXY) or is served', () => {
    const warned = (env: Record<string, string>, url = 'http://x') =>
      startupLines(readStandaloneConfig({ PLANT_STORE_TOKENS: 't', ...env }), url, { description: 'memory' }).includes(
        plaintextLine(env['HOST'] ?? '127.0.0.1'),
      );
    for (const host of ['0.0.0.0', '::', '10.1.2.3', 'plants.internal']) expect(warned({ HOST: host }), host).toBe(true);
    for (const host of ['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]']) expect(warned({ HOST: host }), host).toBe(false);
    expect(warned({ HOST: '0.0.0.0', PLANT_STORE_TLS_PROXY: 'on' })).toBe(false);
    expect(warned({ HOST: '0.0.0.0' }, 'https://x')).toBe(false);
    expect(plaintextLine('0.0.0.0')).toMatch(/^plant-store: listening on 0\.0\.0\.0 without TLS: bearer tokens will cross the network in the clear; /);
  });

  it('reads PLANT_STORE_TLS_CERT and PLANT_STORE_TLS_KEY as both or neither, and refuses either set but empty', () => {
    expect(readStandaloneConfig({ PLANT_STORE_TOKENS: 't' }).tls).toBeUndefined();
    expect(readStandaloneConfig({ PLANT_STORE_TOKENS: 't', PLANT_STORE_TLS_CERT: ' /c.pem ', PLANT_STORE_TLS_KEY: '/k.pem' }).tls).toEqual({
      certPath: '/c.pem',
      keyPath: '/k.pem',
    });
    expect(() => readStandaloneConfig({ PLANT_STORE_TOKENS: 't', PLANT_STORE_TLS_KEY: '/k.pem' })).toThrow(
      /^PLANT_STORE_TLS_CERT: not set, while PLANT_STORE_TLS_KEY is/,
    );
    expect(() => readStandaloneConfig({ PLANT_STORE_TOKENS: 't', PLANT_STORE_TLS_CERT: '/c.pem', PLANT_STORE_TLS_KEY: ' ' })).toThrow(
      /^PLANT_STORE_TLS_KEY: set but empty/,
    );
    expect(() => readStandaloneConfig({ PLANT_STORE_TOKENS: 't', PLANT_STORE_TLS_PROXY: 'maybe' })).toThrow(/^PLANT_STORE_TLS_PROXY: expected on or off/);
  });

  it('reads the log level and the metrics switch: info and on unless set; an invalid level refused in one line', () => {
    const config = readStandaloneConfig({ PLANT_STORE_TOKENS: 't' });
    expect([config.logLevel, config.metrics]).toEqual(['info', true]);
    const set = readStandaloneConfig({ PLANT_STORE_TOKENS: 't', PLANT_STORE_LOG_LEVEL: ' WARN ', PLANT_STORE_METRICS: 'off' });
    expect([set.logLevel, set.metrics]).toEqual(['warn', false]);
    for (const level of ['error', 'debug']) expect(readStandaloneConfig({ PLANT_STORE_TOKENS: 't', PLANT_STORE_LOG_LEVEL: level }).logLevel).toBe(level);
    expect(() => readStandaloneConfig({ PLANT_STORE_TOKENS: 't', PLANT_STORE_LOG_LEVEL: 'verbose' })).toThrow(
      'PLANT_STORE_LOG_LEVEL: expected info or error or warn or debug, got "verbose"',
    );
    expect(() => readStandaloneConfig({ PLANT_STORE_TOKENS: 't', PLANT_STORE_METRICS: 'maybe' })).toThrow(/^PLANT_STORE_METRICS: expected on or off/);
  });

  it('defaults to text logs, the docs page on and CORS off', () => {
    const config = readStandaloneConfig({ PLANT_STORE_TOKENS: 't' });
    expect([config.logFormat, config.docs, config.corsOrigins]).toEqual(['text', true, []]);
  });

  it('reads the log format, the docs switch and the CORS origins, in any case', () => {
    const config = readStandaloneConfig({
      PLANT_STORE_TOKENS: 't',
      PLANT_STORE_LOG_FORMAT: ' JSON ',
      PLANT_STORE_DOCS: 'Off',
      PLANT_STORE_CORS_ORIGINS: 'https://app.example.com, http://localhost:5173',
    });
    expect([config.logFormat, config.docs, config.corsOrigins]).toEqual(['json', false, ['https://app.example.com', 'http://localhost:5173']]);
    expect(readStandaloneConfig({ PLANT_STORE_TOKENS: 't', PLANT_STORE_LOG_FORMAT: '', PLANT_STORE_DOCS: 'ON' })).toMatchObject({
      logFormat: 'text',
      docs: true,
    });
  });

  it('refuses a log format, a docs switch or an origin that cannot work, naming the variable', () => {
    expect(() => readStandaloneConfig({ PLANT_STORE_LOG_FORMAT: 'xml' })).toThrow('PLANT_STORE_LOG_FORMAT: expected text or json, got "xml"');
    expect(() => readStandaloneConfig({ PLANT_STORE_DOCS: 'nope' })).toThrow('PLANT_STORE_DOCS: expected on or off (or true/false, yes/no, 1/0), got "nope"');
    expect(() => readStandaloneConfig({ PLANT_STORE_ACCESS_LOG: 'quiet' })).toThrow(
      'PLANT_STORE_ACCESS_LOG: expected on or off (or true/false, yes/no, 1/0), got "quiet"',
    );
    expect(() => readStandaloneConfig({ PLANT_STORE_CORS_ORIGINS: 'https://a.example/api' })).toThrow(
      /^PLANT_STORE_CORS_ORIGINS: .*"https:\/\/a\.example\/api"$/,
    );
  });

  it('takes the same on/off words for every switch', () => {
    const off = ['off', 'false', 'no', '0', 'FALSE', ' No '].map((word) =>
      readStandaloneConfig({ PLANT_STORE_TOKENS: 't', PLANT_STORE_ACCESS_LOG: word, PLANT_STORE_DOCS: word }),
    );
    expect(off.map((config) => [config.accessLog, config.docs])).toEqual(off.map(() => [false, false]));
    const on = ['on', 'true', 'yes', '1', 'True', ''].map((word) =>
      readStandaloneConfig({ PLANT_STORE_TOKENS: 't', PLANT_STORE_ACCESS_LOG: word, PLANT_STORE_DOCS: word }),
    );
    expect(on.map((config) => [config.accessLog, config.docs])).toEqual(on.map(() => [true, true]));
  });

  it('stops the start when PLANT_STORE_TOKENS is set but holds no token, as a secret missing from a deployment arrives', () => {
    for (const value of ['', '  ', ',', ' , ']) {
      expect(() => readStandaloneConfig({ PLANT_STORE_TOKENS: value })).toThrow(
        new TypeError('PLANT_STORE_TOKENS: set but holds no token; set it to the accepted tokens, comma-separated, or unset it to have one made and printed'),
      );
    }
    expect(readStandaloneConfig({ PLANT_STORE_TOKENS: undefined }).generatedToken).toMatch(/^[0-9a-f]{48}$/);
  });

  it('refuses a port or a token that cannot work', () => {
    expect(() => readStandaloneConfig({ PORT: 'http' })).toThrow(/PORT/);
    expect(() => readStandaloneConfig({ PORT: '70000' })).toThrow(/PORT/);
    expect(() => readStandaloneConfig({ PLANT_STORE_TOKENS: 'has space' })).toThrow(/PLANT_STORE_TOKENS/);
    expect(() => readStandaloneConfig({ PLANT_STORE_DATABASE_URL: 'mysql://u:secret@db/x' })).toThrow(/PLANT_STORE_DATABASE_URL.*"mysql:\/\/u:\*\*\*@db\/x"/);
  });
});

describe('accessLogLine', () => {
  it('writes method, path without query, status and milliseconds', () => {
    expect(accessLogLine('POST', '/plants?token=secret', 200, 1.234)).toBe('POST /plants 200 1.2ms');
  });

  it('reads PLANT_STORE_WRITE_TIMEOUT_MS: 30 s unless set, 0 for no bound, and refuses anything but whole milliseconds', () => {
    expect(readStandaloneConfig({}).writeTimeoutMs).toBe(30_000);
    expect(readStandaloneConfig({ PLANT_STORE_WRITE_TIMEOUT_MS: ' 2000 ' }).writeTimeoutMs).toBe(2_000);
    expect(readStandaloneConfig({ PLANT_STORE_WRITE_TIMEOUT_MS: '0' }).writeTimeoutMs).toBe(0);
    for (const bad of ['2s', '-1', '1.5', '1e4', '9999999999']) {
      expect(() => readStandaloneConfig({ PLANT_STORE_WRITE_TIMEOUT_MS: bad })).toThrow(
        /^PLANT_STORE_WRITE_TIMEOUT_MS: expected a whole number of milliseconds/,
      );
    }
  });
});
