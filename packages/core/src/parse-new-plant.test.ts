import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeJsonError } from './describe-json-error.ts';
import { describeUtf8Error } from './describe-utf8-error.ts';
import { parseNewPlant } from './parse-new-plant.ts';

const fatal = new TextDecoder('utf-8', { fatal: true });

/** What the body's text is to the strict decoder, BOM dropped; undefined where it refuses the bytes. */
function strictText(bytes: Uint8Array): string | undefined {
  try {
    return fatal.decode(bytes);
  } catch {
    return undefined;
  }
}

describe('parseNewPlant', () => {
  it('reads a body as the strict UTF-8 decoder does, ASCII or not: refused where it refuses, else the same text', () => {
    const body = fc.oneof(
      // Valid bodies, ASCII and not, some behind a BOM.
      fc
        .record({ id: fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), name: fc.string({ unit: 'binary' }), bom: fc.boolean() })
        .map(({ id, name, bom }) => [...(bom ? [0xef, 0xbb, 0xbf] : []), ...new TextEncoder().encode(`{"id":${id},"name":${JSON.stringify(name)}}`)]),
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
      const parsed = parseNewPlant(new TextEncoder().encode(text));
      expect(parsed.ok).toBe(true);
    }
    expect(parseNewPlant(new TextEncoder().encode('{"id":9223372036854775807,"name":"Fern"}'))).toStrictEqual({
      ok: true,
      value: { id: 9223372036854775807n, name: 'Fern' },
    });
  });
});
