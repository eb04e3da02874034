// Runs under vitest on Node.
import { describe, expect, it } from 'vitest';
import { STANDALONE_VARIABLES } from './_standalone-variables.ts';
import { unknownVariableWarnings } from './_unknown-variable-warnings.ts';

const messages = (names: string[], runtime: 'Node' | 'Bun' | 'Deno' | 'workerd' = 'Node') =>
  unknownVariableWarnings(names, runtime).map((record) => record.msg);

describe('unknownVariableWarnings', () => {
  it('says nothing of the variables a runtime reads, of its own marker, or of other variables', () => {
    const node = STANDALONE_VARIABLES.filter((variable) => variable.only?.includes('Node') ?? true).map((variable) => variable.name);
    expect(messages([...node, 'PLANT_STORE_WORKER_OF', 'PATH', 'PGHOST', 'NODE_OPTIONS', 'PLANTSTORE'])).toEqual([]);
    expect(messages(['PLANT_STORE_D1_DIR', 'PLANT_STORE_WORKERS'], 'workerd')).toEqual([]);
  });

  it('names the nearest setting of a misspelt one, as a question when it is a few edits away', () => {
    expect(messages(['PLANT_STORE_TOKEN', 'PLANT_STORE_DATABSE_URL', 'PLANT_STORE_PORT', 'plant_store_docs', 'PLANT_STORE_ACCESSLOG'])).toEqual([
      'plant-store: PLANT_STORE_ACCESSLOG is not a setting, so it is ignored; did you mean PLANT_STORE_ACCESS_LOG?',
      'plant-store: PLANT_STORE_DATABSE_URL is not a setting, so it is ignored; did you mean PLANT_STORE_DATABASE_URL?',
      'plant-store: PLANT_STORE_PORT is not a setting, so it is ignored; did you mean PORT?',
      'plant-store: PLANT_STORE_TOKEN is not a setting, so it is ignored; did you mean PLANT_STORE_TOKENS?',
      'plant-store: plant_store_docs is not a setting, so it is ignored; did you mean PLANT_STORE_DOCS?',
    ]);
  });

  it('names the nearest one of a variable that is no typo, and where they are all listed', () => {
    expect(unknownVariableWarnings(['PLANT_STORE_LOG_PATH'], 'Bun')).toEqual([
      {
        level: 'warn',
        msg: 'plant-store: PLANT_STORE_LOG_PATH is not a setting, so it is ignored; the nearest is PLANT_STORE_LOG_FORMAT, and --help lists them all',
        fields: { variable: 'PLANT_STORE_LOG_PATH', nearest: 'PLANT_STORE_LOG_FORMAT' },
      },
    ]);
  });

  it('says a variable of another runtime is ignored on this one, and suggests only what this one reads', () => {
    expect(messages(['PLANT_STORE_D1_DIR'], 'Deno')).toEqual(['plant-store: PLANT_STORE_D1_DIR is read on workerd only, so it is ignored on Deno']);
    expect(messages(['PLANT_STORE_WORKERS'], 'workerd')).toEqual([]);
    expect(messages(['PLANT_STORE_D1_DIRS'], 'Node')).not.toContain(expect.stringContaining('did you mean PLANT_STORE_D1_DIR'));
    expect(messages(['PLANT_STORE_D1_DIRS'], 'workerd')).toEqual([
      'plant-store: PLANT_STORE_D1_DIRS is not a setting, so it is ignored; did you mean PLANT_STORE_D1_DIR?',
    ]);
  });
});
