// Runs wherever a standalone server reads its settings: the Node, Bun, Deno and workerd launchers, and the Worker.

/** The words that turn a switch on, any case. */
export const ON_WORDS = ['on', 'true', 'yes', '1'] as const;
/** The words that turn a switch off, any case. */
export const OFF_WORDS = ['off', 'false', 'no', '0'] as const;

/**
 * Reads an on/off setting (`PLANT_STORE_ACCESS_LOG`, `PLANT_STORE_DOCS`).
 * Every switch takes the same words, so that `false` cannot leave one
 * setting on while another refuses it: {@link ON_WORDS} and
 * {@link OFF_WORDS}, in any case and with spaces around; unset or empty is
 * `fallback`.
 *
 * @param name The variable, for the message.
 * @throws TypeError naming the variable and the words it takes, for any other value.
 */
export function parseSwitch(name: string, value: string | undefined, fallback: boolean): boolean {
  const text = value?.trim().toLowerCase() ?? '';
  if (text === '') return fallback;
  if ((ON_WORDS as readonly string[]).includes(text)) return true;
  if ((OFF_WORDS as readonly string[]).includes(text)) return false;
  throw new TypeError(`${name}: expected on or off (or true/false, yes/no, 1/0), got ${JSON.stringify(value?.trim())}`);
}
