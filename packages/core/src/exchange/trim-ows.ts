// Runs anywhere (no runtime API): a header value's optional whitespace, as HTTP defines it.

/**
 * `text` without the spaces and horizontal tabs around it: HTTP's optional
 * whitespace (RFC 9110 §5.6.3, OWS = SP / HTAB). Not `String.prototype.trim`,
 * which also drops characters HTTP counts as part of a value (U+00A0, which a
 * header byte 0xA0 reads as, U+FEFF, line separators): `Bearer s3cret\xA0`
 * would then pass as `s3cret`.
 *
 * @example
 * trimOws('\t application/json '); // 'application/json'
 * trimOws('s3cret\u00a0'); // 's3cret\u00a0'
 */
export function trimOws(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && isOws(text.charCodeAt(start))) start++;
  while (end > start && isOws(text.charCodeAt(end - 1))) end--;
  return start === 0 && end === text.length ? text : text.slice(start, end);
}

function isOws(code: number): boolean {
  return code === 0x20 || code === 0x09;
}
