import { CONFORMANCE_ORIGIN, CONFORMANCE_TOKEN, type ConformanceScenario, type RawRequest } from '@plant-store/testing';

const OK = { authorization: `Bearer ${CONFORMANCE_TOKEN}`, 'content-type': 'application/json' };
const post = (body: string | Uint8Array, headers: Record<string, string> = OK): RawRequest => ({ path: '/plants', headers, body });

/**
 * One request per row of the contract's status table (docs/contract.md), plus the int64 edges; run in this
 * order on a fresh server. The parity test sends them to every runtime; the
 * OpenAPI drift test checks every documented status is among them.
 */
export interface ParityRequest {
  readonly label: string;
  readonly status: number;
  /** The fault scenario of the server that must answer it; default `working`. */
  readonly scenario?: ConformanceScenario;
  /** Answered differently when mounted in a host (the host gets unknown paths; `servers` names the mount). */
  readonly standaloneOnly?: true;
  readonly request: RawRequest;
}

export const REQUESTS: readonly ParityRequest[] = [
  { label: '200 create', status: 200, request: post('{"id":7,"name":"Fern","tag":"green","extra":true}') },
  // RFC 9112 §3.2.2: routed by its path, its authority ignored (the node:http bridge of @whatwg-node/server lost it);
  // a host mounting the handler under a path routes it first.
  {
    label: '200 absolute-form target',
    status: 200,
    standaloneOnly: true,
    request: { method: 'POST', path: 'http://example.com/plants', headers: OK, body: '{"id":21,"name":"far"}' },
  },
  { label: '200 replay', status: 200, request: post('{"id":7.0,"name":"Fern","tag":"green"}') },
  { label: '200 int64 max', status: 200, request: post('{"id":9223372036854775807,"name":"max"}') },
  { label: '200 int64 min', status: 200, request: post('{"id":-9223372036854775808,"name":"min"}') },
  { label: '200 2^60', status: 200, request: post('{"id":1152921504606846976,"name":"a"}') },
  { label: '200 2^60+1 (not 2^60)', status: 200, request: post('{"id":1152921504606846977,"name":"b"}') },
  { label: '200 duplicate keys: last wins', status: 200, request: post('{"id":8,"id":9,"name":"first","name":"last"}') },
  { label: '409 id 9 was stored as "last"', status: 409, request: post('{"id":9,"name":"first"}') },
  { label: '200 BOM ignored', status: 200, request: post(new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('{"id":10,"name":"bom"}')])) },
  { label: '200 lone surrogate escaped', status: 200, request: post('{"id":11,"name":"\\ud800"}') },
  { label: '400 nesting 100,000 deep', status: 400, request: post(`${'['.repeat(100_000)}${']'.repeat(100_000)}`) },
  { label: '400 objects nested 100,000 deep', status: 400, request: post(`${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`) },
  { label: '400 unclosed nesting 100,000 deep', status: 400, request: post(`{"id":1,"name":"n","x":${'['.repeat(100_000)}}`) },
  { label: '400 a megabyte of digits in id', status: 400, request: post(`{"id":${'9'.repeat((1 << 20) - 18)},"name":"n"}`) },
  {
    label: '200 __proto__ and constructor ignored',
    status: 200,
    request: post('{"id":19,"name":"p","__proto__":{"name":"evil"},"constructor":{"prototype":{"x":1}}}'),
  },
  {
    label: '400 raw surrogate bytes (CESU-8)',
    status: 400,
    request: post(new Uint8Array([...new TextEncoder().encode('{"id":20,"name":"'), 0xed, 0xa0, 0x80, 0x22, 0x7d])),
  },
  { label: '1000 empty body', status: 400, request: post('') },
  { label: '1001 invalid JSON', status: 400, request: post('{"id":1,"name":}') },
  { label: '1001 invalid UTF-8', status: 400, request: post(new Uint8Array([0x7b, 0xc3, 0x28, 0x7d])) },
  { label: '1002 not an object', status: 400, request: post('[{"id":1,"name":"n"}]') },
  { label: '1003 missing id', status: 400, request: post('{"name":"n"}') },
  { label: '1004 id 2^63', status: 400, request: post('{"id":9223372036854775808,"name":"n"}') },
  { label: '1004 id "5"', status: 400, request: post('{"id":"5","name":"n"}') },
  { label: '1004 tag null', status: 400, request: post('{"id":12,"name":"n","tag":null}') },
  { label: '1100 no credentials', status: 401, request: post('{"id":13,"name":"n"}', { 'content-type': 'application/json' }) },
  { label: '1101 rejected token', status: 401, request: post('{"id":13,"name":"n"}', { ...OK, authorization: 'Bearer wrong' }) },
  { label: '1200 no such route', status: 404, standaloneOnly: true, request: { method: 'POST', path: '/plant', headers: OK, body: '{}' } },
  { label: '1201 GET /plants', status: 405, request: { method: 'GET', path: '/plants', headers: OK } },
  { label: '1201 POST /openapi.json', status: 405, request: { method: 'POST', path: '/openapi.json', headers: OK, body: '{}' } },
  { label: '200 GET /openapi.json', status: 200, standaloneOnly: true, request: { method: 'GET', path: '/openapi.json' } },
  {
    label: '1102 preflight from an origin not allowed',
    status: 403,
    scenario: 'features',
    request: { method: 'OPTIONS', path: '/plants', headers: { origin: 'https://elsewhere.example', 'access-control-request-method': 'POST' } },
  },
  {
    // No Content-Type: workerd gave the empty answer's `text/plain;charset=UTF-8`, which no other runtime sends.
    label: '200 preflight from the allowed origin',
    status: 200,
    scenario: 'features',
    request: { method: 'OPTIONS', path: '/plants', headers: { origin: CONFORMANCE_ORIGIN, 'access-control-request-method': 'POST' } },
  },
  { label: '1300 conflict', status: 409, request: post('{"id":7,"name":"Fern","tag":"blue"}') },
  { label: '1400 2 MiB body', status: 413, request: post(`{"id":14,"name":"${'x'.repeat(2 << 20)}"}`, { ...OK, expect: '100-continue' }) },
  { label: '1401 text/plain', status: 415, request: post('{"id":15,"name":"n"}', { ...OK, 'content-type': 'text/plain' }) },
  { label: '1500 verifier throws', status: 500, scenario: 'authenticate-throwing', request: post('{"id":16,"name":"n"}') },
  { label: '1501 store fails', status: 503, scenario: 'store-failing', request: post('{"id":17,"name":"n"}') },
  { label: '1502 store full', status: 507, scenario: 'store-full', request: post('{"id":18,"name":"n"}') },
];
