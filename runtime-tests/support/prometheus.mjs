// Runs on Node (vitest and scripts/ensure-prometheus.mjs): finds Debian's Prometheus and
// promtool, and starts a Prometheus of the tests' own on 127.0.0.1. Plain JavaScript so
// that the ensure script can import it without a build.
import { spawn } from 'node:child_process';
import { accessSync, constants, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './start-postgres.mjs';

/** Where Debian's `prometheus` package puts the server. */
export const DEFAULT_PROMETHEUS = '/usr/bin/prometheus';
/** Where Debian's `prometheus` package puts promtool. */
export const DEFAULT_PROMTOOL = '/usr/bin/promtool';

/** How to get Prometheus where the tests cannot install it themselves. */
export const INSTALL_PROMETHEUS =
  'install it (on Debian or Ubuntu: sudo apt-get install prometheus) or set PLANT_STORE_PROMETHEUS to a prometheus executable with promtool beside it';

/**
 * Prometheus and promtool: beside `PLANT_STORE_PROMETHEUS` when set, else
 * Debian's; undefined when either is not an executable file.
 *
 * @returns {{ prometheus: string, promtool: string } | undefined}
 */
export function findPrometheus() {
  const chosen = process.env['PLANT_STORE_PROMETHEUS'];
  const prometheus = chosen !== undefined && chosen !== '' ? chosen : DEFAULT_PROMETHEUS;
  const promtool = chosen !== undefined && chosen !== '' ? join(prometheus, '..', 'promtool') : DEFAULT_PROMTOOL;
  try {
    accessSync(prometheus, constants.X_OK);
    accessSync(promtool, constants.X_OK);
    return { prometheus, promtool };
  } catch {
    return undefined;
  }
}

/**
 * @typedef {object} TestPrometheus
 * @property {string} url Where its HTTP API answers, e.g. `http://127.0.0.1:41234`.
 * @property {(query: string) => Promise<Array<{ metric: Record<string, string>, value: [number, string] }>>} query
 *   An instant query's vector; rejects when Prometheus answers with an error.
 * @property {() => string} output What it printed so far.
 * @property {() => Promise<void>} close Stops it (SIGTERM, then SIGKILL after 5 s) and removes its data.
 */

/**
 * Starts `binary` with `config` (YAML) on 127.0.0.1 and a free port, its data
 * in a directory of its own, and resolves once `/-/ready` answers 200;
 * rejects with its output if it exits first or is not ready within 20 s.
 *
 * @param {string} binary
 * @param {string} config
 * @returns {Promise<TestPrometheus>}
 */
export async function startPrometheus(binary, config) {
  const dir = mkdtempSync(join(tmpdir(), 'plant-store-prometheus-'));
  writeFileSync(join(dir, 'prometheus.yml'), config);
  const port = await freePort();
  const child = spawn(
    binary,
    [`--config.file=${join(dir, 'prometheus.yml')}`, `--storage.tsdb.path=${join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`, '--log.level=warn'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  let gone = false;
  void exited.then(() => (gone = true));
  const url = `http://127.0.0.1:${port}`;
  const close = async () => {
    if (!gone) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const end = Date.now() + 20_000;
  for (;;) {
    if (gone) {
      await close();
      throw new Error(`prometheus exited before it was ready:\n${output}`);
    }
    const ready = await fetch(`${url}/-/ready`).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() > end) {
      await close();
      throw new Error(`prometheus was not ready within 20 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url,
    async query(query) {
      const response = await fetch(`${url}/api/v1/query?query=${encodeURIComponent(query)}`);
      const answer = /** @type {{ status: string, error?: string, data?: { result: Array<{ metric: Record<string, string>, value: [number, string] }> } }} */ (
        await response.json()
      );
      if (answer.status !== 'success') throw new Error(`prometheus: ${query}: ${answer.error}`);
      return answer.data?.result ?? [];
    },
    output: () => output,
    close,
  };
}
