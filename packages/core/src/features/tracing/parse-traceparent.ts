// Runs anywhere (no runtime API): the W3C Trace Context headers, read strictly.
import { trimOws } from '../../exchange/trim-ows.ts';

/** The caller's span, as a valid `traceparent` header names it (W3C Trace Context, §3.2). */
export interface TraceParent {
  /** 32 lowercase hex digits, not all zero. */
  readonly traceId: string;
  /** The caller's span: 16 lowercase hex digits, not all zero. */
  readonly parentId: string;
  /** The trace flags byte; bit 0 is `sampled`. */
  readonly traceFlags: number;
}

const VERSION_00_LENGTH = 55;
const MAX_TRACESTATE_MEMBERS = 32;
// §3.3.1.3: a key is a simple key, or a tenant and a system joined by `@`; a value is 1 to 256 printable characters, no `,` or `=`, not ending in a space.
const TRACESTATE_MEMBER =
  /^(?:[a-z][a-z0-9_*/-]{0,255}|[a-z0-9][a-z0-9_*/-]{0,240}@[a-z][a-z0-9_*/-]{0,13})=[\x20-\x2b\x2d-\x3c\x3e-\x7e]{0,255}[\x21-\x2b\x2d-\x3c\x3e-\x7e]$/;

/**
 * Reads a `traceparent` header as W3C Trace Context Level 1 says a receiver
 * must: `version-traceid-parentid-flags` in lowercase hex; version `ff`, an
 * all-zero trace or parent id, uppercase hex or any other length for version
 * `00` make it invalid. A later version is read by its first four fields, if
 * what follows them starts with `-` (§4.3, "Versioning of traceparent").
 *
 * @returns The parent, or undefined for a missing or invalid header, which
 *   the server then ignores as if it were absent (§3.2.2).
 * @example
 * parseTraceparent('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01');
 * // { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', parentId: '00f067aa0ba902b7', traceFlags: 1 }
 */
export function parseTraceparent(value: string | undefined): TraceParent | undefined {
  if (value === undefined || value.length < VERSION_00_LENGTH) return undefined;
  // Repeated headers arrive joined with `, `: more than one traceparent is none (§3.2).
  if (value.charCodeAt(2) !== DASH || value.charCodeAt(35) !== DASH || value.charCodeAt(52) !== DASH) return undefined;
  if (!isLowerHex(value, 0, 2) || !isLowerHex(value, 3, 35) || !isLowerHex(value, 36, 52) || !isLowerHex(value, 53, 55)) return undefined;
  const version = value.slice(0, 2);
  if (version === 'ff') return undefined;
  if (version === '00' ? value.length !== VERSION_00_LENGTH : value.length > VERSION_00_LENGTH && value.charCodeAt(55) !== DASH) return undefined;
  const traceId = value.slice(3, 35);
  const parentId = value.slice(36, 52);
  if (isAllZero(traceId) || isAllZero(parentId)) return undefined;
  return { traceId, parentId, traceFlags: Number.parseInt(value.slice(53, 55), 16) };
}

/**
 * Whether a `tracestate` header is one to pass on (W3C Trace Context §3.3):
 * at most 32 comma-separated `key=value` members (empty ones and the spaces
 * around them allowed), each key once. An invalid one is dropped whole,
 * while its `traceparent` still counts.
 *
 * @example
 * isTracestate('rojo=00f067aa0ba902b7,congo=t61rcWkgMzE'); // true
 */
export function isTracestate(value: string): boolean {
  const keys = new Set<string>();
  for (const part of value.split(',')) {
    const member = trimOws(part);
    if (member === '') continue;
    if (!TRACESTATE_MEMBER.test(member)) return false;
    const key = member.slice(0, member.indexOf('='));
    if (keys.has(key)) return false;
    keys.add(key);
    if (keys.size > MAX_TRACESTATE_MEMBERS) return false;
  }
  return true;
}

const DASH = 0x2d;

function isLowerHex(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (!((c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66))) return false;
  }
  return true;
}

function isAllZero(hex: string): boolean {
  for (let i = 0; i < hex.length; i++) if (hex.charCodeAt(i) !== 0x30) return false;
  return true;
}
