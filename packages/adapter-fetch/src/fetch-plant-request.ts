import type { BodyResult, PlantRequest } from '@plant-store/core';

const TOO_LARGE: BodyResult = { ok: false, reason: 'too-large' };
const ABORTED: BodyResult = { ok: false, reason: 'aborted' };
const EMPTY: BodyResult = { ok: true, bytes: new Uint8Array(0) };

/** A WHATWG `Request` seen as the core's plain {@link PlantRequest}. */
export class FetchPlantRequest implements PlantRequest {
  readonly method: string;
  readonly url: string;
  readonly #request: Request;

  constructor(request: Request) {
    this.#request = request;
    this.method = request.method;
    this.url = pathAndQuery(request.url);
  }

  header(name: string): string | undefined {
    return this.#request.headers.get(name) ?? undefined;
  }

  async readBody(maxBytes: number): Promise<BodyResult> {
    const request = this.#request;
    const declared = request.headers.get('content-length');
    if (declared !== null && Number(declared) > maxBytes) return TOO_LARGE;
    const body = request.body;
    if (body === null) return EMPTY;
    const reader = body.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        size += value.byteLength;
        if (size > maxBytes) {
          // Stop pulling: whatever the client still sends is not buffered.
          void reader.cancel().catch(() => {});
          return TOO_LARGE;
        }
        chunks.push(value);
      }
    } catch {
      return ABORTED;
    }
    if (chunks.length === 1) return { ok: true, bytes: chunks[0]! };
    const bytes = new Uint8Array(size);
    let offset = 0;
    for (const chunk of chunks) {
      bytes.set(chunk, offset);
      offset += chunk.byteLength;
    }
    return { ok: true, bytes };
  }
}

/** `https://host:8080/plants?x=1` → `/plants?x=1`, without the cost of `new URL`. */
function pathAndQuery(url: string): string {
  const scheme = url.indexOf('://');
  if (scheme < 0) return url;
  const slash = url.indexOf('/', scheme + 3);
  return slash < 0 ? '/' : url.slice(slash);
}
