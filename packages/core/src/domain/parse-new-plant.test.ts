// Runs on Node (vitest): unit tests of parse-new-plant.ts, against the parser it replaced.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { anyString, int64, invalidCreate, outOfRangeInteger, validCreate } from '@plant-store/testing';
import { describeJsonError } from './describe-json-error.ts';
import { describeUtf8Error } from './describe-utf8-error.ts';
import { fail, type Result } from './failure.ts';
import { parseNewPlantText } from './parse-new-plant-text.ts';
import { parseNewPlant } from './parse-new-plant.ts';
import type { NewPlant } from './schemas.ts';

const fatal = new TextDecoder('utf-8', { fatal: true });
const encoder = new TextEncoder();

/** `text` as UTF-8 after `boms` byte order marks (EF BB BF each). */
const withBoms = (boms: number, text: string) =>
  new Uint8Array([...Array.from({ length: boms * 3 }, (_, i) => [0xef, 0xbb, 0xbf][i % 3]!), ...encoder.encode(text)]);

/** What the body's text is to the strict decoder, BOM dropped; undefined where it refuses the bytes. */
function strictText(bytes: Uint8Array): string | undefined {
  try {
    return fatal.decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * The parser as it was before the common body was read by hand, the reference that
 * parseNewPlant must agree with on every input: the ASCII scan and the strict decoder
 * it had, then the full path it had and still takes for any other body
 * (`parseNewPlantText`: `JSON.parse`, the exact id and the schema).
 */
function referenceParseNewPlant(bytes: Uint8Array): Result<NewPlant> {
  let text: string;
  try {
    text = isAscii(bytes) ? referenceLenient.decode(bytes) : fatal.decode(bytes);
  } catch {
    return fail('invalid-json', describeUtf8Error(bytes));
  }
  return parseNewPlantText(text);
}
const referenceLenient = new TextDecoder('utf-8');
function isAscii(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) if (bytes[i]! > 0x7f) return false;
  return true;
}

/** Asserts that parseNewPlant answers `bytes` exactly as the reference does, down to the order of the plant's keys. */
function expectSameAsReference(bytes: Uint8Array): void {
  const parsed = parseNewPlant(bytes);
  const reference = referenceParseNewPlant(bytes);
  expect(parsed).toStrictEqual(reference);
  if (parsed.ok && reference.ok) expect(Object.keys(parsed.value)).toEqual(Object.keys(reference.value));
}

/** JSON whitespace, none, and characters that look like it but are not JSON's. */
const space = fc.oneof(
  { weight: 6, arbitrary: fc.constant('') },
  { weight: 3, arbitrary: fc.constantFrom(' ', '\n', '\t', '\r\n  ', '  ') },
  { weight: 1, arbitrary: fc.constantFrom('\u00a0', '\ufeff', '\uff01', '\u2028', '\u000b', '\u000c') },
);

/** The id as a literal: plain, integer-valued with a fraction or exponent, out of range, fractional, malformed. */
const idLiteral = fc.oneof(
  { weight: 6, arbitrary: int64().map(String) },
  { weight: 2, arbitrary: fc.integer().map(String) },
  { weight: 1, arbitrary: outOfRangeInteger().map(String) },
  { weight: 1, arbitrary: fc.bigInt({ min: 10n ** 14n, max: 10n ** 20n }).map((n) => (n % 2n === 0n ? `-${n}` : String(n))) },
  { weight: 1, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }).map(String) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '0',
      '-0',
      '5.0',
      '5e2',
      '50e-1',
      '5E+0',
      '0.5e1',
      '1e19',
      '-1e19',
      '5.5',
      '1e-400',
      '-1e-400',
      '1e999999999',
      '9007199254740993',
      '-9007199254740993',
      '1.0000000000000000001',
      '9223372036854775807',
      '-9223372036854775808',
      '9223372036854775808',
      '-9223372036854775809',
      '01',
      '-01',
      '00',
      '-',
      '1.',
      '.5',
      '1e',
      '+1',
      '0x10',
      'NaN',
      'Infinity',
      '1_000',
      '12345678901234567890',
    ),
  },
  { weight: 1, arbitrary: fc.constantFrom('"5"', 'true', 'false', 'null', '[]', '{}', '[1]', '{"id":1}') },
);

/** A string member's value: any JSON string, raw characters JSON refuses or keeps, escapes, and other values. */
const stringLiteral = fc.oneof(
  { weight: 5, arbitrary: anyString().map((s) => JSON.stringify(s)) },
  { weight: 3, arbitrary: fc.string({ maxLength: 8 }).map((s) => `"${s.replace(/["\\]/g, '')}"`) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '""',
      '"Monstera"',
      '"é🌱"',
      '"\ufffd"',
      '"\ufeff"',
      '"\u2028"',
      '"\u007f"',
      '"a\u0001"',
      '"\t"',
      '"\\n"',
      '"\\u0000"',
      '"\\ud800"',
      '"\\"id\\":1.5"',
      '"\\u0069d"',
      '"abc',
      '"a\\"',
      '"\\x"',
      "'single'",
    ),
  },
  { weight: 1, arbitrary: fc.constantFrom('null', 'true', '5', '[]', '{}', '["a"]', '{"name":"x"}', '5.5') },
);

/** A member: the three keys, their escaped spellings, near-misses and unknown keys, each with values of every kind. */
const member = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(fc.constant('"id"'), idLiteral) },
  { weight: 5, arbitrary: fc.tuple(fc.constant('"name"'), stringLiteral) },
  { weight: 4, arbitrary: fc.tuple(fc.constant('"tag"'), stringLiteral) },
  {
    weight: 2,
    arbitrary: fc.tuple(
      fc.constantFrom(
        '"\\u0069d"',
        '"i\\u0064"',
        '"na\\u006de"',
        '"\\u0074ag"',
        '"ID"',
        '"Name"',
        '"ids"',
        '"i"',
        '"nam"',
        '"tags"',
        '"__proto__"',
        '"constructor"',
        '"toString"',
        '"x"',
        '"id',
      ),
      fc.oneof(idLiteral, stringLiteral),
    ),
  },
  {
    weight: 1,
    arbitrary: fc.tuple(
      fc.string({ maxLength: 6 }).map((s) => JSON.stringify(s)),
      fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)),
    ),
  },
);

/** A JSON-ish body: members with whitespace around every token, often valid, often a near-miss, as UTF-8 bytes with or without BOMs. */
const jsonishBody = fc
  .record({
    members: fc.array(fc.tuple(member, space, space, space, space), { maxLength: 5 }),
    open: fc.constantFrom('{', '{', '{', '[', ''),
    close: fc.constantFrom('}', '}', '}', '}', ']', '', ',}', '}}', '}x', '} 1'),
    before: space,
    after: space,
    boms: fc.constantFrom(0, 0, 0, 1, 2),
  })
  .map(({ members, open, close, before, after, boms }) => {
    const text = `${before}${open}${members.map(([[key, value], a, b, c, d]) => `${a}${key}${b}:${c}${value}${d}`).join(',')}${close}${after}`;
    return withBoms(boms, text);
  });

/** Another member's key and value: scalars of every form, valid and not, and values that are not scalars. */
const otherMember = fc.tuple(
  fc.constantFrom('"owner"', '"x"', '""', '"__proto__"', '"a b"', '"\u00e9"', '"\\u00e9"', '"x\\n"', '"x\u0001"', 'x', '"x'),
  fc.oneof(
    fc.stringMatching(/^-?(0|[1-9]\d{0,3})?(\.\d{0,2})?([eE][+-]?\d{0,2})?$/),
    fc.constantFrom(
      'true',
      'false',
      'null',
      'tru',
      'nul',
      'fals',
      'True',
      '+1',
      '01',
      '-01',
      '1.',
      '.5',
      '1e',
      '1e+',
      '1e.5',
      '1.e5',
      '1ee5',
      '1e5.5',
      '0x1',
      '1-2',
      '-',
      'NaN',
      '{}',
      '[]',
      '[1]',
      '{"a":1}',
    ),
    stringLiteral,
  ),
);

/** A body close to the common one: id and name, perhaps a tag, in any order, perhaps a member repeated or another added, with values of every kind. */
const nearPlant = fc
  .record({
    id: idLiteral,
    name: fc.oneof({ weight: 3, arbitrary: anyString().map((s) => JSON.stringify(s)) }, stringLiteral),
    tag: fc.option(stringLiteral, { nil: undefined }),
    extra: fc.option(fc.oneof(member, otherMember, otherMember), { nil: undefined, freq: 3 }),
    order: fc.nat(),
    spaces: fc.array(space, { minLength: 6, maxLength: 6 }),
    boms: fc.constantFrom(0, 0, 0, 1, 2),
  })
  .map(({ id, name, tag, extra, order, spaces, boms }) => {
    const members = [`"id":${id}`, `"name":${name}`];
    if (tag !== undefined) members.splice(order % 3, 0, `"tag"${spaces[0]}:${spaces[1]}${tag}`);
    if (extra !== undefined) members.splice(order % (members.length + 1), 0, `${extra[0]}:${extra[1]}`);
    const text = `${spaces[2]}{${spaces[3]}${members.join(`${spaces[4]},`)}}${spaces[5]}`;
    return withBoms(boms, text);
  });

/** A body with one byte changed, inserted or cut: most of them no longer UTF-8 or no longer JSON. */
const mutated = fc
  .tuple(
    fc.oneof(
      jsonishBody,
      nearPlant,
      validCreate().map(({ body }) => encoder.encode(body)),
    ),
    fc.nat(),
    fc.integer({ min: 0, max: 255 }),
    fc.constantFrom('set', 'insert', 'cut'),
  )
  .map(([bytes, at, byte, how]) => {
    const i = at % (bytes.length + 1);
    const array = [...bytes];
    if (how === 'set' && i < array.length) array[i] = byte;
    else if (how === 'insert') array.splice(i, 0, byte);
    else array.splice(i, 1);
    return new Uint8Array(array);
  });

describe('parseNewPlant', () => {
  it('answers arbitrary bytes exactly as the parser it replaced', () => {
    const bytes = fc.oneof(
      fc.uint8Array({ maxLength: 40 }),
      fc.array(fc.oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.integer({ min: 0, max: 255 })), { maxLength: 24 }).map((a) => new Uint8Array(a)),
    );
    fc.assert(fc.property(bytes, expectSameAsReference), { numRuns: 10_000 });
  });

  it('answers JSON-ish bodies exactly as the parser it replaced: plants, near-misses, duplicates, unknown members, every kind of id, BOMs, invalid UTF-8', () => {
    fc.assert(fc.property(fc.oneof(jsonishBody, nearPlant, mutated), expectSameAsReference), { numRuns: 30_000 });
  });

  it('answers the shared generators of valid and invalid creates exactly as the parser it replaced', () => {
    const body = fc.oneof(
      validCreate().map(({ body }) => body),
      invalidCreate().map(({ body }) => body),
    );
    fc.assert(
      fc.property(body, fc.boolean(), (text, bom) => expectSameAsReference(encoder.encode(bom ? `\ufeff${text}` : text))),
      { numRuns: 5000 },
    );
  });

  it('reads a body as the strict UTF-8 decoder does, ASCII or not: refused where it refuses, else the same text', () => {
    const body = fc.oneof(
      // Valid bodies, ASCII and not, some behind a BOM.
      fc
        .record({ id: fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), name: fc.string({ unit: 'binary' }), bom: fc.boolean() })
        .map(({ id, name, bom }) => [...(bom ? [0xef, 0xbb, 0xbf] : []), ...encoder.encode(`{"id":${id},"name":${JSON.stringify(name)}}`)]),
      // Bytes of any kind, most of them not UTF-8.
      fc.array(fc.oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.integer({ min: 0, max: 255 })), { maxLength: 24 }),
    );
    fc.assert(
      fc.property(body, (array) => {
        const bytes = new Uint8Array(array);
        const text = strictText(bytes);
        const parsed = parseNewPlant(bytes);
        if (text === undefined) {
          expect(parsed).toStrictEqual({ ok: false, error: { kind: 'invalid-json', message: describeUtf8Error(bytes) } });
          return;
        }
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          expect(parsed).toStrictEqual({ ok: false, error: { kind: 'invalid-json', message: describeJsonError(text) } });
          return;
        }
        const record = json as { name?: unknown };
        if (parsed.ok) expect(parsed.value.name).toBe(record.name);
      }),
      { numRuns: 5000 },
    );
  });

  it('takes a valid body, ASCII or not, behind a BOM or not, with its exact id', () => {
    for (const text of ['{"id":9223372036854775807,"name":"Fern"}', '\ufeff{"id":-5,"name":"Farn \u00e9","tag":"\u{1f331}"}', '{"id":5.0,"name":"Moss"}']) {
      const parsed = parseNewPlant(encoder.encode(text));
      expect(parsed.ok).toBe(true);
    }
    expect(parseNewPlant(encoder.encode('{"id":9223372036854775807,"name":"Fern"}'))).toStrictEqual({
      ok: true,
      value: { id: 9223372036854775807n, name: 'Fern' },
    });
  });

  it('tells a U+FFFD the body holds from one the lenient decoder would have put in place of a bad byte', () => {
    expect(parseNewPlant(encoder.encode('{"id":1,"name":"\ufffd"}'))).toStrictEqual({ ok: true, value: { id: 1n, name: '\ufffd' } });
    expect(parseNewPlant(new Uint8Array([...encoder.encode('{"id":1,"name":"\ufffd'), 0xff, 0x22, 0x7d]))).toStrictEqual({
      ok: false,
      error: { kind: 'invalid-json', message: 'body is not valid UTF-8 at byte 19' },
    });
  });
});
