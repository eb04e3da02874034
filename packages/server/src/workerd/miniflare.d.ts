// The part of miniflare's API the workerd launcher uses. miniflare (with the
// workerd binary, about 100 MB) is an optional peer: only `runWorkerd` needs it,
// and a server that never runs workerd never downloads it.
declare module 'miniflare' {
  /** One Worker of a Miniflare instance. */
  export interface WorkerOptions {
    name: string;
    modules: boolean;
    /** The Worker's code, as a file or as text. */
    scriptPath?: string;
    script?: string;
    /** The directory module names are relative to (default: the working directory); workerd refuses a name with `..`. */
    modulesRoot?: string;
    compatibilityDate: string;
    bindings?: Record<string, string>;
    /** Bindings to other Workers of the instance: binding name to Worker name. */
    serviceBindings?: Record<string, string>;
    /** D1 bindings: binding name to database id. */
    d1Databases?: Record<string, string>;
    /** Sockets of workerd's HTTP server bound straight to this Worker, without miniflare's entry Worker; port 0 or absent picks a free one. */
    unsafeDirectSockets?: { host?: string; port?: number }[];
  }
  export interface MiniflareOptions {
    /** Where miniflare's entry Worker listens. */
    host: string;
    port: number;
    /** The directory D1 databases are kept in; without it, in memory. */
    d1Persist?: string;
    /** Called after miniflare has started workerd again when it exited unexpectedly. */
    unsafeHandleRuntimeRestart?: () => void;
    /** Where miniflare reports, its errors included (a restart of workerd that failed: `code` ERR_RUNTIME_FAILURE); by default nowhere. */
    log?: Log;
    workers: WorkerOptions[];
  }
  /** miniflare's log, at a level (0 writes nothing); subclasses override what they want to see. */
  export class Log {
    constructor(level?: number);
    error(message: Error): void;
  }
  export class Miniflare {
    constructor(options: MiniflareOptions);
    /** Applies `options`, starting workerd again with them (on the ports it had, where they were 0); rejects if it does not start. */
    setOptions(options: MiniflareOptions): Promise<void>;
    readonly ready: Promise<URL>;
    /** Where the named Worker's `unsafeDirectSockets` socket listens (0.0.0.0 and :: given as 127.0.0.1). */
    unsafeGetDirectURL(workerName: string): Promise<URL>;
    dispose(): Promise<void>;
  }
}
