// Runs anywhere (no runtime API): the pieces of the Prometheus text exposition format (version 0.0.4).

/** The `Content-Type` of the Prometheus text exposition format. */
export const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/**
 * A label value as the text format writes it between double quotes:
 * backslash, double quote and line feed escaped (`\\`, `\"`, `\n`), every
 * other character as it is.
 *
 * @example
 * escapeLabelValue('a "b"\n'); // 'a \\"b\\"\\n'
 */
export function escapeLabelValue(value: string): string {
  return /[\\"\n]/.test(value) ? value.replace(/[\\"\n]/g, (c) => (c === '\n' ? '\\n' : `\\${c}`)) : value;
}

/**
 * A `# HELP` text as the format writes it: backslash and line feed escaped
 * (`\\`, `\n`); a double quote stays as it is there.
 */
export function escapeHelp(text: string): string {
  return /[\\\n]/.test(text) ? text.replace(/[\\\n]/g, (c) => (c === '\n' ? '\\n' : '\\\\')) : text;
}

/**
 * A sample value as the format writes it: `+Inf`, `-Inf`, `NaN`, or the
 * number as JavaScript prints it, which Go's `ParseFloat` (Prometheus) reads.
 */
export function formatSampleValue(value: number): string {
  if (value === Number.POSITIVE_INFINITY) return '+Inf';
  if (value === Number.NEGATIVE_INFINITY) return '-Inf';
  return Number.isNaN(value) ? 'NaN' : String(value);
}

/**
 * `{name="value",…}` for `labels` in their order, values escaped; `''` for none.
 *
 * @example
 * labelSet([['http_route', '/plants'], ['le', '0.5']]); // '{http_route="/plants",le="0.5"}'
 */
export function labelSet(labels: readonly (readonly [string, string])[]): string {
  if (labels.length === 0) return '';
  let text = '{';
  for (let i = 0; i < labels.length; i++) {
    const [name, value] = labels[i]!;
    text += `${i === 0 ? '' : ','}${name}="${escapeLabelValue(value)}"`;
  }
  return `${text}}`;
}
