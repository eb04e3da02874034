// The part of miniflare's API the workerd launcher uses. miniflare (with the
// workerd binary, about 100 MB) is an optional peer: only `runWorkerd` needs it,
// and a server that never runs workerd never downloads it.
declare module 'miniflare' {
  export interface MiniflareOptions {
    modules: boolean;
    scriptPath: string;
    compatibilityDate: string;
    host: string;
    port: number;
    bindings: Record<string, string>;
    /** D1 bindings: binding name to database id. */
    d1Databases?: Record<string, string>;
    /** The directory D1 databases are kept in; without it, in memory. */
    d1Persist?: string;
  }
  export class Miniflare {
    constructor(options: MiniflareOptions);
    readonly ready: Promise<URL>;
    dispose(): Promise<void>;
  }
}
