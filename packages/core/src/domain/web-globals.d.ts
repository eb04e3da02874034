// Runs anywhere: the few globals the core may use, which every runtime has.
// The core targets plain ES2022 so that the compiler rejects runtime-specific APIs
// (`Buffer`, `process`, `Request`, `console`). These few declarations are the
// exceptions: the WinterCG minimum common API that Node, Bun, Deno and workerd all
// provide as globals. Only the members the core calls are declared.

interface TextDecoderOptions {
  fatal?: boolean;
}

declare class TextDecoder {
  constructor(label?: string, options?: TextDecoderOptions);
  decode(input?: Uint8Array): string;
}

// For the docs page's bodies, encoded once at start.
declare class TextEncoder {
  encode(input?: string): Uint8Array<ArrayBuffer>;
}

interface Crypto {
  randomUUID(): string;
}

declare var crypto: Crypto;

declare function setTimeout(callback: () => void, ms: number): unknown;
declare function clearTimeout(handle: unknown): void;

// A monotonic clock in milliseconds (the High Resolution Time API), for the overload gate's event-loop samples.
declare var performance: { now(): number };
