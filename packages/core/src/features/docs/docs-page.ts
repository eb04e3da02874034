// Runs anywhere (no runtime API): the shape of the API reference page the `docs` option serves.
/** An API reference page served at GET {base}/docs, e.g. `docsPage` from @plant-store/docs-page. */
export interface DocsPage {
  /** The page's HTML. It loads its files and the document by relative URLs (`docs/<file>`, `openapi.json`). */
  readonly html: string;
  /** Files served at GET {base}/docs/<name>. */
  readonly files: Readonly<Record<string, { readonly contentType: string; readonly body: string }>>;
}
