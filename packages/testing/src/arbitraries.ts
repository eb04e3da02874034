// Runs anywhere fast-check runs (the tests, on Node): arbitrary create bodies, valid and not, with what they must produce.
import fc from 'fast-check';
import { INT64_MAX, INT64_MIN } from '@plant-store/core';

/** A valid create request: the JSON text to send and what must come back and be stored. */
export interface ValidCreate {
  readonly id: bigint;
  readonly name: string;
  readonly tag?: string;
  /** The request body, possibly with unknown keys and integer forms such as `5.0` or `5e2`. */
  readonly body: string;
  /** The exact 200 body expected: `{"name":…,"tag":…}`. */
  readonly expected: string;
}

/** A body that is not a valid NewPlant, with the Error code it must get. */
export interface InvalidCreate {
  readonly body: string;
  readonly code: 1001 | 1002 | 1003 | 1004;
}

/** Every int64, with the extremes and the values around 2^53 and 2^63 drawn often. */
export const int64 = (): fc.Arbitrary<bigint> =>
  fc.oneof(
    { weight: 4, arbitrary: fc.bigInt({ min: INT64_MIN, max: INT64_MAX }) },
    { weight: 1, arbitrary: fc.integer().map(BigInt) },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        INT64_MIN,
        INT64_MIN + 1n,
        INT64_MAX - 1n,
        INT64_MAX,
        0n,
        -1n,
        2n ** 53n - 1n,
        2n ** 53n,
        2n ** 53n + 1n,
        -(2n ** 53n) - 1n,
        1152921504606846976n,
        1152921504606846977n,
      ),
    },
  );

/** Integers just outside int64. */
export const outOfRangeInteger = (): fc.Arbitrary<bigint> =>
  fc.oneof(fc.bigInt({ min: INT64_MAX + 1n, max: INT64_MAX * 4n }), fc.bigInt({ min: INT64_MIN * 4n, max: INT64_MIN - 1n }));

/** Any JSON string content: all of Unicode, lone surrogates and `\u0000` included. */
export const anyString = (): fc.Arbitrary<string> =>
  fc.oneof(
    fc.string({ unit: 'binary' }),
    fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)) }),
    fc.constantFrom('', '\u0000', 'Monstera deliciosa', '🌵', '\ud800', 'a"b\\c'),
  );

/** An unknown property that must be ignored; `__proto__` and `constructor` included. */
const extraKey = (): fc.Arbitrary<string> =>
  fc.oneof(fc.constantFrom('__proto__', 'constructor', 'prototype', 'owner', 'ID', 'Name'), fc.string({ maxLength: 8 }));

/** An id written as any JSON integer form of the same value: `5`, `5.0`, `5e0`, `50e-1`, `0.5e1`, `5E+0000000000000`, `0.5e0000000000001`. */
const integerForm = (id: bigint): fc.Arbitrary<string> => {
  const text = id.toString();
  const digits = text.replace('-', '');
  const sign = id < 0n ? '-' : '';
  const trailingZeros = digits.length - digits.replace(/0+$/, '').length;
  const forms: fc.Arbitrary<string>[] = [
    fc.constant(text),
    fc.constant(`${text}.0`),
    fc.constant(`${text}e0`),
    fc.constant(id === 0n ? '0.0e-1' : `${text}0e-1`),
    fc.constant(`${sign}0.${digits}e${digits.length}`),
    // An exponent's leading zeros, which JSON allows.
    fc.constant(`${text}E+0000000000000`),
    fc.constant(`${sign}0.${digits}e000000000000${digits.length}`),
  ];
  if (trailingZeros > 0 && digits !== '0') {
    forms.push(fc.constant(`${sign}${digits.slice(0, digits.length - trailingZeros)}E+${trailingZeros}`));
  }
  return fc.oneof(...forms);
};

/** A valid NewPlant as request text, with the response and stored plant it must produce. */
export const validCreate = (): fc.Arbitrary<ValidCreate> =>
  fc
    .record({
      id: int64(),
      name: anyString(),
      tag: fc.option(anyString(), { nil: undefined }),
      extras: fc.array(fc.tuple(extraKey(), fc.jsonValue({ maxDepth: 2 })), { maxLength: 3 }),
      order: fc.nat(),
    })
    .chain(({ id, name, tag, extras, order }) =>
      integerForm(id).map((idText) => {
        const members = [`"id":${idText}`, `"name":${JSON.stringify(name)}`];
        if (tag !== undefined) members.push(`"tag":${JSON.stringify(tag)}`);
        // Known keys are never repeated by the extras, so which one wins is not in question.
        for (const [key, value] of extras) {
          if (key !== 'id' && key !== 'name' && key !== 'tag')
            members.splice(order % (members.length + 1), 0, `${JSON.stringify(key)}:${JSON.stringify(value)}`);
        }
        const plant = tag === undefined ? { name } : { name, tag };
        const base = { id, name, body: `{${members.join(',')}}`, expected: JSON.stringify(plant) };
        return tag === undefined ? base : { ...base, tag };
      }),
    );

const wrongTypeForId = (): fc.Arbitrary<string> =>
  fc.oneof(
    outOfRangeInteger().map(String),
    fc.double({ noInteger: true, noDefaultInfinity: true, noNaN: true }).map(String),
    fc.constantFrom('"5"', 'true', 'false', 'null', '[]', '{}', '5.5', '1e19', '-1e19', '9223372036854775808', '-9223372036854775809', '1e-7', '0.5'),
  );

const wrongTypeForString = (): fc.Arbitrary<string> =>
  fc.oneof(fc.constantFrom('null', 'true', '5', '[]', '{}', '["a"]'), fc.double({ noNaN: true, noDefaultInfinity: true }).map(String));

/** A body that is close to valid but is not: each with the code it must get. */
export const invalidCreate = (): fc.Arbitrary<InvalidCreate> =>
  fc.oneof(
    wrongTypeForId().map((id): InvalidCreate => ({ body: `{"id":${id},"name":"n"}`, code: 1004 })),
    wrongTypeForString().map((name): InvalidCreate => ({ body: `{"id":1,"name":${name}}`, code: 1004 })),
    wrongTypeForString().map((tag): InvalidCreate => ({ body: `{"id":1,"name":"n","tag":${tag}}`, code: 1004 })),
    fc.constantFrom<InvalidCreate>(
      { body: '{"name":"n"}', code: 1003 },
      { body: '{"id":1}', code: 1003 },
      { body: '{}', code: 1003 },
      { body: '{"ID":1,"Name":"n"}', code: 1003 },
      { body: '{"id":"x","tag":"t"}', code: 1003 },
    ),
    fc
      .jsonValue()
      .filter((value) => typeof value !== 'object' || value === null || Array.isArray(value))
      .map((value): InvalidCreate => ({ body: JSON.stringify(value), code: 1002 })),
    fc.constantFrom<InvalidCreate>(
      { body: '{"id":1,"name":"n"', code: 1001 },
      { body: "{'id':1}", code: 1001 },
      { body: '{"id":01,"name":"n"}', code: 1001 },
      { body: '{"id":1,"name":"n",}', code: 1001 },
      { body: '{"id":NaN,"name":"n"}', code: 1001 },
      { body: '{"id":1,"name":"\u0001"}', code: 1001 },
      { body: ' ', code: 1001 },
      { body: '{"id":1,"name":"n"}x', code: 1001 },
    ),
  );
