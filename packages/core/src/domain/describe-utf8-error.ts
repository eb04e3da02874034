// Runs anywhere (TextDecoder, which every runtime has): where bytes stop being well-formed UTF-8, for the 400's message.
/**
 * Says where `bytes` stop being well-formed UTF-8 (Unicode 15, table 3-7: no
 * overlongs, no surrogates, nothing above U+10FFFF). Called only after a fatal
 * `TextDecoder` has refused the bytes, to give the client a position.
 *
 * @returns e.g. `body is not valid UTF-8 at byte 12`
 */
export function describeUtf8Error(bytes: Uint8Array): string {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    let need: number;
    let low = 0x80;
    let high = 0xbf;
    if (b < 0x80) {
      i++;
      continue;
    } else if (b >= 0xc2 && b <= 0xdf) need = 1;
    else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      if (b === 0xe0) low = 0xa0;
      if (b === 0xed) high = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      if (b === 0xf0) low = 0x90;
      if (b === 0xf4) high = 0x8f;
    } else return `body is not valid UTF-8 at byte ${i}`;
    for (let k = 1; k <= need; k++) {
      const next = bytes[i + k];
      if (next === undefined || next < (k === 1 ? low : 0x80) || next > (k === 1 ? high : 0xbf)) {
        return `body is not valid UTF-8 at byte ${i}`;
      }
    }
    i += need + 1;
  }
  return 'body is not valid UTF-8';
}
