// Runs under vitest on Node.
import { describe, expect, it } from 'vitest';
import { formatLogRecords } from './_format-log-records.ts';
import { readStandaloneConfig } from './read-standalone-config.ts';
import { startupRecords } from './startup-lines.ts';

describe('formatLogRecords', () => {
  const config = readStandaloneConfig({});
  const records = startupRecords(config, 'http://127.0.0.1:8080', { description: 'memory', warning: 'plant-store: plants are lost at exit' });

  it('text: the startup lines as they always were, one per line', () => {
    expect(formatLogRecords(records, 'text').split('\n')).toEqual([
      'plant-store listening on http://127.0.0.1:8080 (store: memory)',
      'plant-store: plants are lost at exit',
      `plant-store: PLANT_STORE_TOKENS is not set; the only accepted token is ${config.generatedToken}`,
    ]);
  });

  it('json: one object per line with time, level and msg, and the listening line says where for machines', () => {
    const lines = formatLogRecords(records, 'json')
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.map((line) => [line['level'], line['msg']])).toEqual(records.map((record) => [record.level, record.msg]));
    expect(lines[0]).toMatchObject({ level: 'info', url: 'http://127.0.0.1:8080', store: 'memory' });
    expect(lines.map((line) => line['level'])).toEqual(['info', 'warn', 'warn']);
    for (const line of lines) expect(Object.keys(line).slice(0, 3)).toEqual(['time', 'level', 'msg']);
  });
});
