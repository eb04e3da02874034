// Runs on Node (vitest): unit tests of read-common-plant.ts; parse-new-plant.test.ts pins that parseNewPlant, which calls it, answers as before.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { anyString, int64 } from '@plant-store/testing';
import { readCommonPlant } from './read-common-plant.ts';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A string JSON can hold without escapes (no quote, backslash or control character) that UTF-8 can hold (no lone surrogate). */
const plainString = anyString().filter((s) => !/["\\\u0000-\u001f]/.test(s) && decoder.decode(encoder.encode(s)) === s);

/** readCommonPlant on the UTF-8 bytes of `text` and their decoding, as parseNewPlant calls it. */
const read = (text: string) => {
  const bytes = encoder.encode(text);
  return readCommonPlant(bytes, decoder.decode(bytes));
};
const space = fc.constantFrom('', ' ', '\n', '\t', '\r\n  ');

describe('readCommonPlant', () => {
  it('reads the common body, its members in any order, with any JSON whitespace, as the value JSON.parse and the exact id give', () => {
    fc.assert(
      fc.property(
        int64(),
        plainString,
        fc.option(plainString, { nil: undefined }),
        fc.nat(),
        fc.array(space, { minLength: 16, maxLength: 16 }),
        (id, name, tag, order, s) => {
          const members = [`"id"${s[0]}:${s[1]}${id}`, `"name"${s[2]}:${s[3]}"${name}"`];
          if (tag !== undefined) members.splice(order % 3, 0, `"tag"${s[4]}:${s[5]}"${tag}"`);
          const text = `${s[6]}{${s[7]}${members.join(`${s[8]},${s[9]}`)}${s[10]}}${s[11]}`;
          const expected = tag === undefined ? { id, name } : { id, name, tag };
          expect(JSON.parse(text)).toStrictEqual({ ...expected, id: Number(id) });
          const plant = read(text);
          expect(plant).toStrictEqual(expected);
          expect(Object.keys(plant!)).toEqual(Object.keys(expected));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('reads a body behind one BOM, and strings beyond ASCII, 4-byte characters included, where they are in the text', () => {
    expect(read('\ufeff{"id":1,"name":"n"}')).toStrictEqual({ id: 1n, name: 'n' });
    expect(read('\ufeff{ "tag" : "\u{1f331}é" , "name":"Farn \u00e9 \u4e2d\u{10ffff}", "id":12345678901234567 }')).toStrictEqual({
      id: 12345678901234567n,
      name: 'Farn \u00e9 \u4e2d\u{10ffff}',
      tag: '\u{1f331}é',
    });
  });

  it('reads over other members whose key and value are ASCII scalars without escapes, as the schema drops them', () => {
    expect(read('{"owner":"kim","id":1,"x":null,"y":true,"z":false,"w":-0.5e+3,"v":0,"u":1E-2,"name":"n","":"","__proto__":7}')).toStrictEqual({
      id: 1n,
      name: 'n',
    });
    expect(read('{\n  "id": 10000000000,\n  "name": "Monstera",\n  "owner": "kim"\n}\n')).toStrictEqual({ id: 10000000000n, name: 'Monstera' });
  });

  it('reads ids exactly at the edges: 15 and 16 digits, 2^53, the int64 bounds, -0', () => {
    for (const id of [
      '0',
      '-0',
      '999999999999999',
      '-999999999999999',
      '1000000000000000',
      '9007199254740993',
      '9223372036854775807',
      '-9223372036854775808',
    ]) {
      expect(read(`{"id":${id},"name":"n"}`)).toStrictEqual({ id: BigInt(id), name: 'n' });
    }
  });

  it('leaves every other text to the full path: other keys, repeated keys, escapes, other ids, other values, not JSON', () => {
    for (const text of [
      '{"id":1,"name":"n","x":{}}',
      '{"id":1,"name":"n","x":[]}',
      '{"id":1,"name":"n","x":"\u00e9"}',
      '{"id":1,"name":"n","\u00e9":1}',
      '{"id":1,"name":"n","x\\n":1}',
      '{"id":1,"name":"n","x":"\\n"}',
      '{"id":1,"name":"n","x":"\u0001"}',
      '{"id":1,"name":"n","x":01}',
      '{"id":1,"name":"n","x":1.}',
      '{"id":1,"name":"n","x":.5}',
      '{"id":1,"name":"n","x":1e}',
      '{"id":1,"name":"n","x":1e+}',
      '{"id":1,"name":"n","x":+1}',
      '{"id":1,"name":"n","x":-}',
      '{"id":1,"name":"n","x":tru}',
      '{"id":1,"name":"n","x":nul}',
      '{"id":1,"name":"n","x":True}',
      '{"id":1,"name":"n","x"}',
      '{"id":1,"name":"n","x":}',
      '{"id":1,"name":"n",x:1}',
      '{"id":1,"id":2,"name":"n"}',
      '{"id":1,"name":"n","name":"m"}',
      '{"\\u0069d":1,"name":"n"}',
      '{"id":1,"name":"a\\"b"}',
      '{"id":1,"name":"a\\u0062"}',
      '{"id":1.0,"name":"n"}',
      '{"id":1e2,"name":"n"}',
      '{"id":1E2,"name":"n"}',
      '{"id":01,"name":"n"}',
      '{"id":-,"name":"n"}',
      '{"id":9223372036854775808,"name":"n"}',
      '{"id":-9223372036854775809,"name":"n"}',
      '{"id":12345678901234567890,"name":"n"}',
      '{"id":"1","name":"n"}',
      '{"id":1,"name":null}',
      '{"id":1,"name":"n","tag":5}',
      '{"name":"n"}',
      '{"id":1}',
      '{"id":1,"tag":"t"}',
      '{}',
      '{"id":1,"name":"n",}',
      '{"id":1,"name":"n"}x',
      '{"id":1,"name":"n"',
      '{"id":1,"name":"n',
      '{"id":1,"name":"a\u0001"}',
      '\ufeff\ufeff{"id":1,"name":"n"}',
      '\uff01{"id":1,"name":"n"}',
      '{"id":1,"name":"n"}\u00a0',
      '[{"id":1,"name":"n"}]',
      '',
    ]) {
      expect(read(text), text).toBeUndefined();
    }
  });
});
