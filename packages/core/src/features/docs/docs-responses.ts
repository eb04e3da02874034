// Runs anywhere (TextEncoder, which every runtime has): the docs page's answers, checked and built once.
import type { DocsPage } from './docs-page.ts';
import type { PlantResponse } from '../../exchange/http-types.ts';

/**
 * The policy of the docs page and its files: everything from this origin and
 * nothing from any other, no inline script, no `<base>`, no forms, no framing.
 * Inline styles stay allowed because Swagger UI sets style attributes.
 */
export const DOCS_CONTENT_SECURITY_POLICY =
  "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

// A file name is one or more path segments of unreserved characters (RFC 3986
// §2.3): a browser sends them as they are, so the name matches the path as
// routed, where nothing is decoded.
const FILE_NAME = /^[A-Za-z0-9._~-]+(?:\/[A-Za-z0-9._~-]+)*$/;
// Printable ASCII: a header value that cannot carry a line break.
const CONTENT_TYPE = /^[\x21-\x7e][\x20-\x7e]*$/;

const UTF8 = new TextEncoder();

/** The answers of the docs routes, built once, their bodies encoded once. */
export interface DocsResponses {
  /** `GET {base}/docs`: the page. */
  readonly page: PlantResponse;
  /** `GET {base}/docs/<name>`, by name. */
  readonly files: ReadonlyMap<string, PlantResponse>;
}

/**
 * Checks a {@link DocsPage} and builds its answers: the page as
 * `text/html; charset=utf-8`, not cached without revalidation (it names the
 * files of this version), and each file with its content type, cached for
 * an hour; all with {@link DOCS_CONTENT_SECURITY_POLICY} and
 * `X-Content-Type-Options: nosniff`.
 *
 * @throws TypeError for a page without HTML, a file name that is not path
 *   segments of `A-Z a-z 0-9 . _ ~ -` (or is a `.` or `..` segment), or a
 *   content type that is not printable ASCII.
 * @param caller The function the user called, which the errors name.
 */
export function createDocsResponses(page: DocsPage, caller = 'createPlantHandler'): DocsResponses {
  if (typeof page?.html !== 'string' || typeof page.files !== 'object' || page.files === null) {
    throw new TypeError(`${caller}: \`docs\` must be a DocsPage: { html: string, files: { [name]: { contentType, body } } }`);
  }
  const shared = { 'content-security-policy': DOCS_CONTENT_SECURITY_POLICY, 'x-content-type-options': 'nosniff' };
  const files = new Map<string, PlantResponse>();
  for (const [name, file] of Object.entries(page.files)) {
    const where = `${caller}: \`docs.files[${JSON.stringify(name)}]\``;
    if (!FILE_NAME.test(name) || name.split('/').some((segment) => segment === '.' || segment === '..')) {
      throw new TypeError(`${where}: a file name must be path segments of A-Z a-z 0-9 . _ ~ - (no "." or ".." segment)`);
    }
    if (typeof file?.contentType !== 'string' || !CONTENT_TYPE.test(file.contentType)) throw new TypeError(`${where}: \`contentType\` must be printable ASCII`);
    if (typeof file.body !== 'string') throw new TypeError(`${where}: \`body\` must be a string`);
    const headers = Object.freeze({ 'content-type': file.contentType, 'cache-control': 'public, max-age=3600', ...shared });
    files.set(name, Object.freeze({ status: 200, headers, body: file.body, bytes: UTF8.encode(file.body) }));
  }
  const pageHeaders = Object.freeze({ 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache', ...shared });
  return { page: Object.freeze({ status: 200, headers: pageHeaders, body: page.html, bytes: UTF8.encode(page.html) }), files };
}
