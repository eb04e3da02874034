// The few Bun and Deno globals the snippets use, so that they type-check
// without bun-types or Deno's own declarations.

type SnippetFetch = (request: Request) => Response | Promise<Response>;

declare const Bun: {
  readonly env: Record<string, string | undefined>;
  serve(options: { hostname?: string; port?: number; fetch: SnippetFetch }): { readonly url: URL };
};

declare const Deno: {
  readonly env: { get(name: string): string | undefined };
  serve(options: { hostname?: string; port?: number }, handler: SnippetFetch): unknown;
};
