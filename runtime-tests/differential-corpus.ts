// Runs under vitest on Node: the raw requests the differential test sends to every standalone runtime.
import { CONFORMANCE_TOKEN } from '@plant-store/testing';

/**
 * The differential fuzzer's corpus: requests as raw bytes, each sent on its own
 * connection to every standalone runtime (differential.test.ts). Every entry is
 * deterministic: ids come from one counter, so each entry has ids of its own (the
 * answers do not depend on the order requests arrive in) and every runtime, on
 * its own fresh server, sees the same ids.
 */
export interface CorpusEntry {
  readonly label: string;
  /** The bytes written on a fresh connection, all at once. */
  readonly bytes: Uint8Array;
  /** The request is incomplete (a body still owed): no answer within the time bound is right. */
  readonly mayWait?: true;
  /** A HEAD request: its answers carry no body. */
  readonly head?: true;
  /** A GET of the OpenAPI document: a 200 with the document, not a Plant, is right. */
  readonly document?: true;
}

const encoder = new TextEncoder();
const utf8 = (text: string) => encoder.encode(text);
const concat = (...parts: (string | Uint8Array | readonly number[])[]): Uint8Array => {
  const chunks = parts.map((part) => (typeof part === 'string' ? utf8(part) : Uint8Array.from(part)));
  const out = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
};

/** Ids of their own for every entry that may store a plant; far from the fixed ids (int64 edges, 0, 5, 1000). */
let nextId = 7_000_000n;
const fresh = () => String(nextId++);

const AUTH = `Bearer ${CONFORMANCE_TOKEN}`;
type Header = readonly [string, string];
const BASE: readonly Header[] = [
  ['Host', 'localhost'],
  ['Authorization', AUTH],
  ['Content-Type', 'application/json'],
];

interface Built {
  method?: string;
  target?: string;
  version?: string;
  /** Replaces the usual Host, Authorization and Content-Type headers. */
  headers?: readonly Header[];
  /** Added after them. */
  extra?: readonly Header[];
  body?: string | Uint8Array;
  /** Content-Length from the body, unless false. */
  length?: boolean;
  /** Line ending of the head. */
  eol?: string;
}

/** A request with Connection: close and, by default, Content-Length. */
function request({
  method = 'POST',
  target = '/plants',
  version = 'HTTP/1.1',
  headers = BASE,
  extra = [],
  body = '',
  length = true,
  eol = '\r\n',
}: Built): Uint8Array {
  const bytes = typeof body === 'string' ? utf8(body) : body;
  const all: Header[] = [...headers, ...extra, ['Connection', 'close']];
  if (length) all.push(['Content-Length', String(bytes.length)]);
  return concat(`${method} ${target} ${version}${eol}`, ...all.map(([name, value]) => `${name}: ${value}${eol}`), eol, bytes);
}

/** A head written by hand (lines joined with CRLF), then the body. */
const raw = (lines: readonly string[], body: string | Uint8Array = '', eol = '\r\n') => concat(lines.join(eol), eol, eol, body);
const rawHead = (...more: string[]) => [
  'POST /plants HTTP/1.1',
  'Host: localhost',
  `Authorization: ${AUTH}`,
  'Content-Type: application/json',
  'Connection: close',
  ...more,
];

const plant = (name = 'n') => `{"id":${fresh()},"name":${JSON.stringify(name)}}`;
const chunked = (body: string) => `${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`;

const entries: CorpusEntry[] = [];
const add = (label: string, bytes: Uint8Array, flags: { mayWait?: true; head?: true; document?: true } = {}) => entries.push({ label, bytes, ...flags });

// ---------------------------------------------------------------- framing

{
  const body = plant();
  add('framing: CL then TE chunked', raw(rawHead(`Content-Length: ${body.length}`, 'Transfer-Encoding: chunked'), chunked(body)));
}
{
  const body = plant();
  add('framing: TE chunked then CL', raw(rawHead('Transfer-Encoding: chunked', `Content-Length: ${body.length}`), chunked(body)));
}
{
  // The CL covers only the chunk-size line: a smuggled request rides behind it.
  const body = plant();
  const smuggled = `GET /plants HTTP/1.1\r\nHost: localhost\r\n\r\n`;
  const chunks = `0\r\n\r\n${smuggled}`;
  add('framing: CL+TE smuggling probe', raw(rawHead('Content-Length: 3', 'Transfer-Encoding: chunked'), chunks));
  add('framing: TE+CL, CL covers a plant', raw(rawHead('Transfer-Encoding: chunked', `Content-Length: ${body.length}`), body));
}
{
  const body = plant();
  add('framing: two equal Content-Length', raw(rawHead(`Content-Length: ${body.length}`, `Content-Length: ${body.length}`), body));
}
{
  const body = plant();
  add('framing: two different Content-Length', raw(rawHead(`Content-Length: ${body.length}`, `Content-Length: ${body.length - 1}`), body));
}
{
  const body = plant();
  add('framing: Content-Length list "N, N"', raw(rawHead(`Content-Length: ${body.length}, ${body.length}`), body));
}
for (const [name, value] of [
  ['plus sign', (n: number) => `+${n}`],
  ['hex 0x', (n: number) => `0x${n.toString(16)}`],
  ['leading zeros', (n: number) => `000${n}`],
  ['trailing letters', (n: number) => `${n}abc`],
  ['exponent', (n: number) => `${n}e0`],
  ['decimal point', (n: number) => `${n}.0`],
  ['space inside', (n: number) => `${String(n)[0]} ${String(n).slice(1)}`],
  ['empty', () => ''],
] as const) {
  const body = plant();
  add(`framing: Content-Length ${name}`, raw(rawHead(`Content-Length: ${value(body.length)}`), body));
}
add('framing: Content-Length -1', raw(rawHead('Content-Length: -1'), plant()));
add('framing: Content-Length -0', raw(rawHead('Content-Length: -0'), ''));
add('framing: Content-Length 2^53 (huge)', raw(rawHead('Content-Length: 9007199254740992'), plant()));
add('framing: Content-Length 2^64 (huge)', raw(rawHead('Content-Length: 18446744073709551616'), plant()));
add('framing: Content-Length 40 digits', raw(rawHead(`Content-Length: ${'9'.repeat(40)}`), plant()));
add('framing: Content-Length 2 MiB declared, 10 bytes sent', raw(rawHead('Content-Length: 2097152'), '{"id":1234'));
add('framing: Content-Length longer than body', raw(rawHead('Content-Length: 100'), plant()), { mayWait: true });
{
  const body = plant();
  add('framing: Content-Length shorter than body', raw(rawHead(`Content-Length: ${body.length - 2}`), body));
}
add('framing: no Content-Length, no TE, body sent', raw(rawHead(), plant()));

// chunked bodies
const chunkedHead = rawHead('Transfer-Encoding: chunked');
{
  const body = plant();
  add('chunked: valid, one chunk', raw(chunkedHead, chunked(body)));
}
{
  const body = plant();
  const half = Math.floor(body.length / 2);
  add(
    'chunked: valid, two chunks, uppercase hex',
    raw(
      chunkedHead,
      `${half.toString(16).toUpperCase()}\r\n${body.slice(0, half)}\r\n${(body.length - half).toString(16).toUpperCase()}\r\n${body.slice(half)}\r\n0\r\n\r\n`,
    ),
  );
}
for (const [name, size] of [
  ['size not hex', 'zz'],
  ['size 0x prefix', (n: number) => `0x${n.toString(16)}`],
  ['size plus sign', (n: number) => `+${n.toString(16)}`],
  ['size negative', () => '-1'],
  ['size empty', () => ''],
  ['size overflowing 64 bits', () => 'f'.repeat(17)],
  ['size leading zeros', (n: number) => `0000${n.toString(16)}`],
  ['size with trailing space', (n: number) => `${n.toString(16)} `],
] as const) {
  const body = plant();
  const text = typeof size === 'string' ? size : size(body.length);
  add(`chunked: ${name}`, raw(chunkedHead, `${text}\r\n${body}\r\n0\r\n\r\n`));
}
{
  const body = plant();
  add('chunked: size larger than data, then end', raw(chunkedHead, `${(body.length + 10).toString(16)}\r\n${body}\r\n0\r\n\r\n`), { mayWait: true });
}
{
  const body = plant();
  add('chunked: size smaller than data', raw(chunkedHead, `${(body.length - 3).toString(16)}\r\n${body}\r\n0\r\n\r\n`));
}
{
  const body = plant();
  add('chunked: missing final chunk', raw(chunkedHead, `${body.length.toString(16)}\r\n${body}\r\n`), { mayWait: true });
}
{
  const body = plant();
  add('chunked: final chunk without closing CRLF', raw(chunkedHead, `${body.length.toString(16)}\r\n${body}\r\n0\r\n`), { mayWait: true });
}
{
  const body = plant();
  add('chunked: no CRLF after chunk data', raw(chunkedHead, `${body.length.toString(16)}\r\n${body}0\r\n\r\n`));
}
{
  const body = plant();
  add('chunked: bare LF in chunk framing', raw(chunkedHead, `${body.length.toString(16)}\n${body}\n0\n\n`));
}
{
  const body = plant();
  add('chunked: extension', raw(chunkedHead, `${body.length.toString(16)};foo=bar\r\n${body}\r\n0\r\n\r\n`));
}
{
  const body = plant();
  add('chunked: an extension of 20,000 bytes', raw(chunkedHead, `${body.length.toString(16)};x=${'a'.repeat(20_000)}\r\n${body}\r\n0\r\n\r\n`));
}
{
  const body = plant();
  add('chunked: extension with quoted value', raw(chunkedHead, `${body.length.toString(16)};foo="b a r"\r\n${body}\r\n0;x\r\n\r\n`));
}
{
  const body = plant();
  add('chunked: extension with bare LF inside', raw(chunkedHead, `${body.length.toString(16)};foo=\nbar\r\n${body}\r\n0\r\n\r\n`));
}
{
  const body = plant();
  add('chunked: trailer', raw(chunkedHead, `${body.length.toString(16)}\r\n${body}\r\n0\r\nX-Trailer: 1\r\n\r\n`));
}
{
  const body = plant();
  add('chunked: trailer Content-Length', raw(chunkedHead, `${body.length.toString(16)}\r\n${body}\r\n0\r\nContent-Length: 5\r\n\r\n`));
}
{
  const body = plant();
  add('chunked: trailer without colon', raw(chunkedHead, `${body.length.toString(16)}\r\n${body}\r\n0\r\nbroken trailer\r\n\r\n`));
}
add('chunked: only the final chunk (empty body)', raw(chunkedHead, '0\r\n\r\n'));
for (const [name, value] of [
  ['Transfer-Encoding: Chunked (case)', 'Chunked'],
  ['Transfer-Encoding: gzip, chunked', 'gzip, chunked'],
  ['Transfer-Encoding: chunked, gzip', 'chunked, gzip'],
  ['Transfer-Encoding: chunked, chunked', 'chunked, chunked'],
  ['Transfer-Encoding: identity', 'identity'],
  ['Transfer-Encoding: xchunked', 'xchunked'],
  ['Transfer-Encoding: " chunked" (leading space)', ' chunked'],
] as const) {
  const body = plant();
  add(`chunked: ${name}`, raw(rawHead(`Transfer-Encoding: ${value}`), chunked(body)));
}
{
  const body = plant();
  add('chunked: two Transfer-Encoding headers', raw(rawHead('Transfer-Encoding: chunked', 'Transfer-Encoding: chunked'), chunked(body)));
}
{
  const body = plant();
  add('chunked: Transfer-Encoding on HTTP/1.0', raw(['POST /plants HTTP/1.0', ...rawHead('Transfer-Encoding: chunked').slice(1)], chunked(body)));
}

// line endings and header syntax
{
  const body = plant();
  add('head: bare LF line endings', request({ body, eol: '\n' }));
}
{
  const body = plant();
  add('head: bare CR line endings', request({ body, eol: '\r' }));
}
{
  const body = plant();
  add(
    'head: one header ends in bare LF',
    raw(
      [
        'POST /plants HTTP/1.1',
        'Host: localhost\nAuthorization: ' + AUTH,
        'Content-Type: application/json',
        `Content-Length: ${body.length}`,
        'Connection: close',
      ],
      body,
    ),
  );
}
{
  const body = plant();
  add('head: obs-fold on X-Folded', raw(rawHead(`Content-Length: ${body.length}`, 'X-Folded: a', ' b'), body));
}
{
  const body = plant();
  add(
    'head: obs-fold on Content-Type',
    raw(
      [
        'POST /plants HTTP/1.1',
        'Host: localhost',
        `Authorization: ${AUTH}`,
        'Content-Type: application/',
        '\tjson',
        `Content-Length: ${body.length}`,
        'Connection: close',
      ],
      body,
    ),
  );
}
{
  const body = plant();
  add('head: first header line folded', raw(['POST /plants HTTP/1.1', ' X-Folded: a', ...rawHead(`Content-Length: ${body.length}`).slice(1)], body));
}
{
  const body = plant();
  add('head: header without colon', raw(rawHead(`Content-Length: ${body.length}`, 'NoColonHere'), body));
}
{
  const body = plant();
  add('head: space before colon (X-Test)', raw(rawHead(`Content-Length: ${body.length}`, 'X-Test : 1'), body));
}
{
  const body = plant();
  add('head: space before colon (Content-Length)', raw(rawHead(`Content-Length : ${body.length}`), body));
}
{
  const body = plant();
  add('head: tab before colon', raw(rawHead(`Content-Length: ${body.length}`, 'X-Test\t: 1'), body));
}
{
  const body = plant();
  add('head: empty header name', raw(rawHead(`Content-Length: ${body.length}`, ': value'), body));
}
{
  const body = plant();
  add('head: NUL in header value', raw(rawHead(`Content-Length: ${body.length}`, 'X-Test: a\0b'), body));
}
{
  const body = plant();
  add('head: NUL in header name', raw(rawHead(`Content-Length: ${body.length}`, 'X-Te\0st: a'), body));
}
{
  const body = plant();
  add('head: CR inside header value', raw(rawHead(`Content-Length: ${body.length}`, 'X-Test: a\rb'), body));
}
{
  const body = plant();
  add('head: DEL and 0xFF in header value', concat(raw(rawHead(`Content-Length: ${body.length}`, 'X-Test: a\x7f')).slice(0, -4), [0xff], '\r\n\r\n', body));
}
{
  const body = plant();
  add('head: non-token char in header name', raw(rawHead(`Content-Length: ${body.length}`, 'X(Test): 1'), body));
}
for (const size of [8 * 1024, 15 * 1024, 17 * 1024, 20 * 1024, 64 * 1024]) {
  const body = plant();
  add(`head: ${size / 1024} KiB header line`, raw(rawHead(`Content-Length: ${body.length}`, `X-Long: ${'a'.repeat(size)}`), body));
}
{
  const body = plant();
  add('head: 200 headers', raw(rawHead(`Content-Length: ${body.length}`, ...Array.from({ length: 200 }, (_, i) => `X-H${i}: ${i}`)), body));
}
{
  // About 9 KB of short fields, then the two that matter.
  const body = plant();
  const fillers = Array.from({ length: 1000 }, (_, i) => `x${i}: y`);
  add(
    'head: 1000 header fields before Authorization and Content-Type',
    raw(
      [
        'POST /plants HTTP/1.1',
        'Host: localhost',
        ...fillers,
        `Authorization: ${AUTH}`,
        'Content-Type: application/json',
        'Connection: close',
        `Content-Length: ${body.length}`,
      ],
      body,
    ),
  );
}
{
  const body = plant();
  add('head: 2000 headers', raw(rawHead(`Content-Length: ${body.length}`, ...Array.from({ length: 2000 }, (_, i) => `X-H${i}: ${i}`)), body));
}
{
  const body = plant();
  add('head: two Host headers', request({ body, headers: [['Host', 'localhost'], ['Host', 'example.com'], ...BASE.slice(1)] }));
}
{
  const body = plant();
  add('head: no Host', request({ body, headers: BASE.slice(1) }));
}
{
  const body = plant();
  add('head: empty Host', request({ body, headers: [['Host', ''], ...BASE.slice(1)] }));
}
{
  const body = plant();
  add('head: Host with bad chars', request({ body, headers: [['Host', 'a b@c'], ...BASE.slice(1)] }));
}
{
  const body = plant();
  add('head: no headers at all but CL', raw(['POST /plants HTTP/1.1', `Content-Length: ${body.length}`, 'Connection: close'], body));
}
{
  const body = plant();
  add('head: Expect 100-continue', request({ body, extra: [['Expect', '100-continue']] }));
}
{
  const body = plant();
  add('head: Expect unknown', request({ body, extra: [['Expect', 'something-else']] }));
}
{
  const body = plant();
  add('head: leading empty line before request line', concat('\r\n', request({ body })));
}
{
  const body = plant();
  add('head: whitespace before request line', concat(' ', request({ body })));
}

// request line
for (const version of ['HTTP/1.0', 'HTTP/1.2', 'HTTP/2.0', 'HTTP/3', 'HTTP/0.9', 'HTTP/1.1x', 'http/1.1', 'HTTP/01.1', 'HTTP/1.10', 'FOO/1.1']) {
  add(`request line: version ${version}`, request({ version, body: plant() }));
}
add('request line: no version', raw(['POST /plants', 'Host: localhost']));
add('request line: HTTP/2 preface', utf8('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'));
add('request line: two spaces between parts', raw([`POST  /plants HTTP/1.1`, ...rawHead().slice(1), 'Content-Length: 0']));
add('request line: tab separator', raw([`POST\t/plants\tHTTP/1.1`, ...rawHead().slice(1), 'Content-Length: 0']));
add('request line: trailing space', raw([`POST /plants HTTP/1.1 `, ...rawHead().slice(1), 'Content-Length: 0']));
for (const method of ['post', 'Post', 'FOO', 'PROPFIND', 'PATCH', 'PUT', 'DELETE', 'GET', 'CONNECT', 'TRACE', 'M-SEARCH', 'P@ST']) {
  add(`method: ${method}`, request({ method, body: plant() }));
}
add('method: HEAD /plants', request({ method: 'HEAD', length: false }), { head: true });
add('method: HEAD /openapi.json', request({ method: 'HEAD', target: '/openapi.json', length: false }), { head: true });
add('method: OPTIONS *', request({ method: 'OPTIONS', target: '*', length: false }));
add('method: OPTIONS /plants', request({ method: 'OPTIONS', length: false }));
add('method: POST *', request({ target: '*', body: plant() }));
add('method: CONNECT authority-form', request({ method: 'CONNECT', target: 'localhost:80', length: false }));
add('method: GET with body', request({ method: 'GET', target: '/openapi.json', body: plant() }), { document: true });

// targets
for (const target of [
  'http://localhost/plants',
  'http://127.0.0.1:1/plants',
  'https://example.com/plants',
  'HTTP://EXAMPLE.COM/plants',
  'http://example.com/plants?x=1',
  'http://user:pass@localhost/plants',
  'http://localhost',
  'ftp://localhost/plants',
  'localhost/plants',
  'plants',
  '/./plants',
  '/a/../plants',
  '/../plants',
  '/plants/.',
  '/plants/../plants',
  '/%2e/plants',
  '/%2E%2E/plants',
  '/%70lants',
  '/plants%2F',
  '//plants',
  '///plants',
  '/plants/',
  '/plants//',
  '/PLANTS',
  '/Plants',
  '/plants;x=1',
  '/plants?',
  '/plants?x=1',
  '/plants?x=1&y=%ZZ',
  '/plants??',
  '/plants?#',
  '/plants#frag',
  '/plants#',
  '/plants%23frag',
  '/plants%3Fx=1',
  '/plants%00',
  '/plants\\',
  '\\plants',
  '/plants%20',
  `/plants?${'a'.repeat(8 * 1024)}`,
  `/plants?${'a'.repeat(20 * 1024)}`,
  `/${'a'.repeat(20 * 1024)}`,
  '/openapi.json/',
  '/openapi.json?x',
  // Characters RFC 3986 leaves out that node:http lets through (workerd refused them itself, in plain text).
  '/plants?a<b>c',
  '/plants?"q"',
  '/plants?`{}|^',
  '/pl<ants',
  '/plants`',
  '/plants{x}',
  '/plants|',
  '/plants^',
]) {
  add(`target: ${target.length > 60 ? `${target.slice(0, 12)}… (${target.length} bytes)` : target}`, request({ target, body: plant() }));
}
add('target: raw 0xFF byte', concat('POST /pl', [0xff], 'ants HTTP/1.1\r\n', raw(rawHead(`Content-Length: 0`).slice(1))));
add('target: raw UTF-8 é', concat('POST /pl', [0xc3, 0xa9], 'nts HTTP/1.1\r\n', raw(rawHead(`Content-Length: 0`).slice(1))));
add('target: control char 0x01', concat('POST /pl', [0x01], 'ants HTTP/1.1\r\n', raw(rawHead(`Content-Length: 0`).slice(1))));

// media type and credentials, which ride in headers the runtimes parse
for (const type of [
  'application/json; charset=utf-8',
  'APPLICATION/JSON; CHARSET="UTF8"',
  'application/json;charset=latin1',
  'application/json ',
  ' application/json',
  'application/json;',
  'application/json; charset=',
  'application/json, text/plain',
  'text/json',
  'application/vnd.api+json',
  '',
]) {
  add(
    `content-type: "${type}"`,
    request({
      body: plant(),
      headers: [
        ['Host', 'localhost'],
        ['Authorization', AUTH],
        ['Content-Type', type],
      ],
    }),
  );
}
add('content-type: two headers', request({ body: plant(), extra: [['Content-Type', 'application/json']] }));
add('content-type: none', request({ body: plant(), headers: BASE.slice(0, 2) }));
for (const [name, value] of [
  ['lowercase scheme', `bearer ${CONFORMANCE_TOKEN}`],
  ['two spaces', `Bearer  ${CONFORMANCE_TOKEN}`],
  ['trailing spaces', `Bearer ${CONFORMANCE_TOKEN}   `],
  ['tab separator', `Bearer\t${CONFORMANCE_TOKEN}`],
  ['scheme only', 'Bearer'],
  ['Basic', 'Basic dXNlcjpwYXNz'],
  ['token with NUL-free non-b64 char', `Bearer ${CONFORMANCE_TOKEN}!`],
  ['token with latin1 byte', `Bearer ${CONFORMANCE_TOKEN}\u00e9`],
] as const) {
  add(
    `auth: ${name}`,
    request({
      body: plant(),
      headers: [
        ['Host', 'localhost'],
        ['Authorization', value],
        ['Content-Type', 'application/json'],
      ],
    }),
  );
}
add('auth: two Authorization headers', request({ body: plant(), extra: [['Authorization', AUTH]] }));
{
  // A byte 0xA0 after the token, as sent (read as U+00A0, which JavaScript's trim drops), and as UTF-8 (C2 A0).
  const body = plant();
  const rest = `\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: ${body.length}\r\n\r\n`;
  add('auth: token then a byte 0xA0', concat(`POST /plants HTTP/1.1\r\nHost: localhost\r\nAuthorization: ${AUTH}`, [0xa0], rest, body));
  add('auth: token then U+00A0 in UTF-8', concat(`POST /plants HTTP/1.1\r\nHost: localhost\r\nAuthorization: ${AUTH}`, [0xc2, 0xa0], rest, body));
}
add(
  'auth: an empty Authorization, then the token',
  request({
    body: plant(),
    headers: [
      ['Host', 'localhost'],
      ['Authorization', ''],
      ['Authorization', AUTH],
      ['Content-Type', 'application/json'],
    ],
  }),
);
add(
  'content-type: an empty one, then application/json',
  request({
    body: plant(),
    headers: [
      ['Host', 'localhost'],
      ['Authorization', AUTH],
      ['Content-Type', ''],
      ['Content-Type', 'application/json'],
    ],
  }),
);
add(
  'auth: none',
  request({
    body: plant(),
    headers: [
      ['Host', 'localhost'],
      ['Content-Type', 'application/json'],
    ],
  }),
);

// ---------------------------------------------------------------- bodies

const post = (label: string, body: string | Uint8Array) => add(`body: ${label}`, request({ body }));

// Numbers as the id; the name is the same everywhere, so an id met twice is a replay.
for (const id of [
  '9223372036854775807',
  '9223372036854775808',
  '-9223372036854775808',
  '-9223372036854775809',
  '18446744073709551616',
  '9007199254740991',
  '9007199254740992',
  '9007199254740993',
  '-9007199254740993',
  '1e3',
  '1E3',
  '1e+3',
  '10000e-1',
  '5.0',
  '5.00000000000000000000000000001',
  '5.5',
  '-0',
  '-0.0',
  '0e999999999',
  '1e400',
  '-1e400',
  '1e-400',
  '1e19',
  '9.223372036854775807e18',
  '9223372036854775807.0',
  '92233720368547758070e-1',
  '1' + '0'.repeat(400),
  '0x10',
  '+5',
  '05',
  '.5',
  '5.',
  '-',
  '1e',
  'NaN',
  'Infinity',
  '-Infinity',
  'true',
  'null',
  '"5"',
  '[5]',
  '{}',
]) {
  post(`id ${id.length > 40 ? `${id.slice(0, 8)}… (${id.length} chars)` : id}`, `{"id":${id},"name":"edge"}`);
}
for (const value of ['1', 'true', 'null', '[]', '{}', '""']) {
  post(`name ${value}`, `{"id":${fresh()},"name":${value}}`);
  post(`tag ${value}`, `{"id":${fresh()},"name":"n","tag":${value}}`);
}

// Bad UTF-8, in a name, in a tag, in a key, and between tokens.
const BAD_UTF8: readonly (readonly [string, readonly number[]])[] = [
  ['lone continuation 0x80', [0x80]],
  ['lone continuation 0xBF', [0xbf]],
  ['overlong "/" C0 AF', [0xc0, 0xaf]],
  ['overlong C1 BF', [0xc1, 0xbf]],
  ['overlong 3-byte E0 80 AF', [0xe0, 0x80, 0xaf]],
  ['overlong 4-byte F0 80 80 AF', [0xf0, 0x80, 0x80, 0xaf]],
  ['overlong NUL C0 80', [0xc0, 0x80]],
  ['surrogate D800 ED A0 80', [0xed, 0xa0, 0x80]],
  ['surrogate DFFF ED BF BF', [0xed, 0xbf, 0xbf]],
  ['surrogate pair CESU-8', [0xed, 0xa0, 0xbd, 0xed, 0xb8, 0x80]],
  ['truncated 2-byte C3', [0xc3]],
  ['truncated 3-byte E2 82', [0xe2, 0x82]],
  ['truncated 4-byte F0 9F 98', [0xf0, 0x9f, 0x98]],
  ['above U+10FFFF F4 90 80 80', [0xf4, 0x90, 0x80, 0x80]],
  ['F5 lead byte', [0xf5, 0x80, 0x80, 0x80]],
  ['FE', [0xfe]],
  ['FF', [0xff]],
  ['5-byte form F8 88 80 80 80', [0xf8, 0x88, 0x80, 0x80, 0x80]],
];
for (const [name, bytes] of BAD_UTF8) {
  post(`bad UTF-8 in name: ${name}`, concat(`{"id":${fresh()},"name":"a`, bytes, '"}'));
  post(`bad UTF-8 in tag: ${name}`, concat(`{"id":${fresh()},"name":"n","tag":"`, bytes, '"}'));
  post(`bad UTF-8 in key: ${name}`, concat(`{"id":${fresh()},"name":"n","`, bytes, '":1}'));
}
post('bad UTF-8 between tokens', concat(`{"id":${fresh()},`, [0x80], '"name":"n"}'));
post('bad UTF-8 as the last byte', concat(`{"id":${fresh()},"name":"n"}`, [0xc3]));
post('valid 4-byte UTF-8 (emoji)', concat(`{"id":${fresh()},"name":"`, [0xf0, 0x9f, 0x98, 0x80], '"}'));
post('valid U+10FFFF', concat(`{"id":${fresh()},"name":"`, [0xf4, 0x8f, 0xbf, 0xbf], '"}'));
post('valid U+FFFF (noncharacter)', concat(`{"id":${fresh()},"name":"`, [0xef, 0xbf, 0xbf], '"}'));
post('valid U+FEFF inside a string', concat(`{"id":${fresh()},"name":"`, [0xef, 0xbb, 0xbf], '"}'));

// BOMs
post('BOM', concat([0xef, 0xbb, 0xbf], plant('bom')));
post('two BOMs', concat([0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf], plant('bom')));
post('BOM after whitespace', concat(' ', [0xef, 0xbb, 0xbf], plant('bom')));
post('BOM at the end', concat(plant('bom'), [0xef, 0xbb, 0xbf]));
post('UTF-16 BE BOM', concat([0xfe, 0xff], plant('bom')));
post('UTF-16 LE body', concat([0xff, 0xfe], ...[...plant('utf16')].map((c) => [c.charCodeAt(0), 0])));
post('truncated BOM EF BB', concat([0xef, 0xbb], plant('bom')));

// Nesting
for (const depth of [1_000, 10_000]) {
  post(`${depth} [ unclosed`, '['.repeat(depth));
  post(`${depth} [ closed`, `${'['.repeat(depth)}${']'.repeat(depth)}`);
  post(`${depth} [ inside a valid plant`, `{"id":${fresh()},"name":"n","x":${'['.repeat(depth)}${']'.repeat(depth)}}`);
  post(`${depth} { inside a valid plant`, `{"id":${fresh()},"name":"n","x":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}`);
  post(`${depth} [ as the name`, `{"id":${fresh()},"name":${'['.repeat(depth)}${']'.repeat(depth)}}`);
}

// Duplicate keys and prototype keys
{
  const [a, b] = [fresh(), fresh()];
  post('duplicate id: last wins', `{"id":${a},"id":${b},"name":"a"}`);
}
post('duplicate name: last wins', `{"id":${fresh()},"name":"first","name":"last"}`);
post('duplicate name: last is a number', `{"id":${fresh()},"name":"a","name":5}`);
post('duplicate id: first is a string', `{"id":"x","id":${fresh()},"name":"a"}`);
post('duplicate id: last is a string', `{"id":${fresh()},"id":"x","name":"a"}`);
post('duplicate tag: last is null', `{"id":${fresh()},"name":"a","tag":"t","tag":null}`);
post('key with escape: "\\u0069d"', `{"\\u0069d":${fresh()},"name":"a"}`);
post('__proto__ holds the plant', `{"__proto__":{"id":${fresh()},"name":"p"}}`);
post('__proto__ null beside a plant', `{"id":${fresh()},"name":"p","__proto__":null}`);
post('__proto__ holds the name', `{"id":${fresh()},"__proto__":{"name":"x"}}`);
post('__proto__ twice', `{"id":${fresh()},"name":"p","__proto__":{},"__proto__":[]}`);
post('constructor and prototype keys', `{"id":${fresh()},"name":"p","constructor":{"prototype":{"name":"x"}},"prototype":1}`);
post('toString and hasOwnProperty keys', `{"id":${fresh()},"name":"p","toString":1,"hasOwnProperty":2,"valueOf":3}`);
post('name is "__proto__"', `{"id":${fresh()},"name":"__proto__","tag":"constructor"}`);

// Strings
for (const [label, literal] of [
  ['escaped lone high surrogate', '"\\ud800"'],
  ['escaped lone low surrogate', '"\\udc00"'],
  ['escaped two high surrogates', '"\\ud800\\ud800"'],
  ['escaped reversed pair', '"\\udc00\\ud800"'],
  ['escaped valid pair', '"\\ud83d\\ude00"'],
  ['escaped uppercase pair', '"\\uD83D\\uDE00"'],
  ['escaped U+0000', '"\\u0000"'],
  ['escaped U+0000 among text', '"a\\u0000b"'],
  ['all simple escapes', '"\\"\\\\\\/\\b\\f\\n\\r\\t"'],
  ['escaped U+2028 and U+2029', '"\\u2028\\u2029"'],
  ['raw U+2028', '"\u2028"'],
  ['escaped DEL', '"\\u007f"'],
  ['empty string', '""'],
  ['bad escape \\x41', '"\\x41"'],
  ['bad escape \\u12', '"\\u12"'],
  ['bad escape \\uZZZZ', '"\\uZZZZ"'],
  ["escaped apostrophe \\'", '"\\\'"'],
  ['raw NUL byte', '"a\0b"'],
  ['raw tab', '"a\tb"'],
  ['raw newline', '"a\nb"'],
  ['raw DEL', '"a\x7fb"'],
  ['single quotes', "'n'"],
  ['unterminated', '"abc'],
]) {
  post(`name ${label}`, `{"id":${fresh()},"name":${literal}}`);
  post(`tag ${label}`, `{"id":${fresh()},"name":"n","tag":${literal}}`);
}

// Whole bodies
for (const [label, body] of [
  ['empty', ''],
  ['one space', ' '],
  ['whitespace only', ' \t\r\n '],
  ['NUL byte only', '\0'],
  ['null', 'null'],
  ['true', 'true'],
  ['number', '1'],
  ['string', '"plant"'],
  ['array of a plant', '[{"id":1,"name":"n"}]'],
  ['empty array', '[]'],
  ['empty object', '{}'],
  ['object with only name', '{"name":"n"}'],
  ['object with only id', `{"id":${fresh()}}`],
  ['trailing comma', `{"id":${fresh()},"name":"n",}`],
  ['trailing garbage', `{"id":${fresh()},"name":"n"}x`],
  ['two objects', `{"id":${fresh()},"name":"n"}{"id":1,"name":"m"}`],
  ['trailing whitespace', `{"id":${fresh()},"name":"n"} \r\n\t`],
  ['leading whitespace', ` \r\n\t{"id":${fresh()},"name":"n"}`],
  ['trailing NUL', `{"id":${fresh()},"name":"n"}\0`],
  ['non-JSON whitespace (NBSP) before', `\u00a0{"id":${fresh()},"name":"n"}`],
  ['vertical tab before', `\v{"id":${fresh()},"name":"n"}`],
  ['comment', `{"id":${fresh()}, /* c */ "name":"n"}`],
  ['unquoted key', `{id:${fresh()},"name":"n"}`],
  ['single-quoted keys', `{'id':${fresh()},'name':'n'}`],
  ['truncated object', `{"id":${fresh()},"name":"n"`],
  ['missing colon', `{"id" ${fresh()},"name":"n"}`],
  ['missing comma', `{"id":${fresh()} "name":"n"}`],
  ['unknown fields', `{"id":${fresh()},"name":"n","tag":"t","x":[1,{"y":null}],"z":1e400}`],
  ['unknown field holding a lone minus', `{"id":${fresh()},"name":"n","x":-}`],
] as const) {
  post(label, body);
}

// Sizes
post('200 KB ASCII name', `{"id":${fresh()},"name":"${'a'.repeat(200_000)}"}`);
post('200 KB of é (100k characters) in name', `{"id":${fresh()},"name":"${'é'.repeat(100_000)}"}`);
post('200 KB of emoji in tag', `{"id":${fresh()},"name":"n","tag":"${'😀'.repeat(50_000)}"}`);
post('30k escaped \\u00e9 in name', `{"id":${fresh()},"name":"${'\\u00e9'.repeat(30_000)}"}`);
post('200 KB of whitespace before the object', `${' '.repeat(200_000)}{"id":${fresh()},"name":"n"}`);
post('200 KB key', `{"id":${fresh()},"name":"n","${'k'.repeat(200_000)}":1}`);
post('50k unknown fields', `{"id":${fresh()},"name":"n",${Array.from({ length: 50_000 }, (_, i) => `"k${i}":0`).join(',')}}`);
post('200 KB of digits in id', `{"id":${'1'.repeat(200_000)},"name":"n"}`);
post('200 KB fraction in id', `{"id":1.${'0'.repeat(200_000)},"name":"edge"}`);
{
  const prefix = `{"id":${fresh()},"name":"`;
  post('body exactly 1 MiB', `${prefix}${'a'.repeat((1 << 20) - prefix.length - 2)}"}`);
}
{
  const prefix = `{"id":${fresh()},"name":"`;
  post('body 1 MiB + 1', `${prefix}${'a'.repeat((1 << 20) - prefix.length - 1)}"}`);
}

export const CORPUS: readonly CorpusEntry[] = entries;

/** The runtimes of runtimes.ts, by name. */
export type RuntimeName = 'Node 22' | 'Node 24' | 'Node 26' | 'Bun' | 'Deno' | 'workerd';

/**
 * Why answers differ, as observed: each row is a runtime, one reason, and the
 * corpus labels it explains. For Node 24 (the reference) a row lists answers
 * that are neither an Error body nor a Plant. Grouped by cause so that a reason
 * is written once; KNOWN_DIFFERENCES below is the table the test reads.
 */
/** Framing that Bun's parser refuses itself: Content-Length with Transfer-Encoding, and lengths that are not plain digits. */
const BAD_CONTENT_LENGTH = [
  'framing: CL then TE chunked',
  'framing: TE chunked then CL',
  'framing: CL+TE smuggling probe',
  'framing: TE+CL, CL covers a plant',
  'framing: two different Content-Length',
  'framing: Content-Length list "N, N"',
  'framing: Content-Length plus sign',
  'framing: Content-Length hex 0x',
  'framing: Content-Length trailing letters',
  'framing: Content-Length exponent',
  'framing: Content-Length decimal point',
  'framing: Content-Length space inside',
  'framing: Content-Length empty',
  'framing: Content-Length -1',
  'framing: Content-Length -0',
  'framing: Content-Length 2^64 (huge)',
  'framing: Content-Length 40 digits',
];

const CAUSES: readonly (readonly [RuntimeName, string, readonly string[]])[] = [
  [
    'Bun',
    "Bun's HTTP parser refuses this itself with an empty 400/431/505 before the handler runs (Node: the Error body 1005/1403)",
    [
      ...BAD_CONTENT_LENGTH,
      'chunked: size not hex',
      'chunked: size 0x prefix',
      'chunked: size plus sign',
      'chunked: size negative',
      'chunked: size empty',
      'chunked: size overflowing 64 bits',
      'chunked: size with trailing space',
      'chunked: size smaller than data',
      'chunked: no CRLF after chunk data',
      'chunked: bare LF in chunk framing',
      'chunked: extension with bare LF inside',
      'chunked: trailer Content-Length',
      'chunked: trailer without colon',
      'chunked: Transfer-Encoding: chunked, gzip',
      'chunked: Transfer-Encoding: chunked, chunked',
      'chunked: Transfer-Encoding: identity',
      'chunked: Transfer-Encoding: xchunked',
      'chunked: two Transfer-Encoding headers',
      'head: bare LF line endings',
      'head: bare CR line endings',
      'head: one header ends in bare LF',
      'head: obs-fold on X-Folded',
      'head: obs-fold on Content-Type',
      'head: first header line folded',
      'head: header without colon',
      'head: space before colon (X-Test)',
      'head: space before colon (Content-Length)',
      'head: tab before colon',
      'head: empty header name',
      'head: NUL in header value',
      'head: NUL in header name',
      'head: CR inside header value',
      'head: non-token char in header name',
      'head: 17 KiB header line',
      'head: 20 KiB header line',
      'head: 64 KiB header line',
      'head: 2000 headers',
      'head: whitespace before request line',
      'request line: version HTTP/1.2',
      'request line: version HTTP/3',
      'request line: version HTTP/1.1x',
      'request line: version http/1.1',
      'request line: version HTTP/01.1',
      'request line: version HTTP/1.10',
      'request line: version FOO/1.1',
      'request line: no version',
      'request line: HTTP/2 preface',
      'request line: tab separator',
      'request line: trailing space',
      'method: P@ST',
      'target: localhost/plants',
      'target: plants',
      'target: \\plants',
      'target: /plants?aaaa… (20488 bytes)',
      'target: /aaaaaaaaaaa… (20481 bytes)',
      'target: control char 0x01',
    ],
  ],
  [
    'Bun',
    "Bun's HTTP parser accepts what llhttp refuses (equal duplicate Content-Length, DEL/obs-text, raw non-ASCII target, no CRLF after the last chunk) and the handler answers",
    [
      'framing: two equal Content-Length',
      'chunked: final chunk without closing CRLF',
      'head: DEL and 0xFF in header value',
      'target: raw 0xFF byte',
      'target: raw UTF-8 é',
    ],
  ],
  [
    'Bun',
    'Bun refuses a declared body over its own maxRequestBodySize itself with an empty 413, before the handler runs',
    ['framing: Content-Length 2^53 (huge)'],
  ],
  [
    'Bun',
    'Bun sends no 413 for a declared Content-Length over the limit while the declared body is still owed (Node answers at once; Bun launcher)',
    ['framing: Content-Length 2 MiB declared, 10 bytes sent'],
  ],
  [
    'Bun',
    "Bun's HTTP parser is stricter than llhttp here and refuses with an empty 400/505 what Node hands to the handler",
    [
      'chunked: extension with quoted value',
      'chunked: trailer',
      'chunked: Transfer-Encoding: gzip, chunked',
      'chunked: Transfer-Encoding on HTTP/1.0',
      'head: leading empty line before request line',
      'request line: version HTTP/2.0',
      'request line: version HTTP/0.9',
      'request line: two spaces between parts',
      'method: OPTIONS *',
      'method: POST *',
      'target: ftp://localhost/plants',
    ],
  ],
  [
    'Bun',
    'Bun allows at most 100 header fields and answers an empty 431 itself (Node allows 2000)',
    ['head: 200 headers', 'head: 1000 header fields before Authorization and Content-Type'],
  ],
  ['Bun', "Bun's HTTP parser refuses a chunk extension this long itself, with an empty 413 (Node: 1005)", ['chunked: an extension of 20,000 bytes']],
  [
    'Deno',
    "Deno 2.9's node:http reads a chunk extension of any length, where llhttp refuses one past 16 KiB (1005): the create is stored",
    ['chunked: an extension of 20,000 bytes'],
  ],
  [
    'Deno',
    "Deno 2.9's node:http applies no limit to the head's size (Node: 431, 1403) and drops the fields that come after a thousand others, Authorization among them here: 401 (1100)",
    ['head: 1000 header fields before Authorization and Content-Type'],
  ],
  [
    'Bun',
    'Bun refuses HTTP/1.1 without Host itself with a 400 that is not the Error body (Node sends 400/1005)',
    ['head: no Host', 'head: no headers at all but CL'],
  ],
  [
    'Bun',
    "Bun's HTTP parser closes the connection without an answer on a method it does not know (llhttp: 1005)",
    ['method: post', 'method: Post', 'method: FOO'],
  ],
];

/**
 * Answers known to differ from the Node 24 standalone server (or, for Node 24
 * itself, known not to be an Error body or a Plant), by corpus label and
 * runtime, each with a one-line reason. The test fails on a difference missing
 * here and on an entry here that no longer differs.
 */
export const KNOWN_DIFFERENCES: Readonly<Record<string, Partial<Record<RuntimeName, string>>>> = (() => {
  const table: Record<string, Partial<Record<RuntimeName, string>>> = {};
  for (const [runtime, reason, labels] of CAUSES) {
    for (const label of labels) {
      const row = (table[label] ??= {});
      if (row[runtime] !== undefined) throw new Error(`KNOWN_DIFFERENCES: ${label} / ${runtime} is listed twice`);
      row[runtime] = reason;
    }
  }
  return table;
})();
