// Runs anywhere (no runtime API): whether a Content-Type is JSON in UTF-8.
import { trimOws } from './trim-ows.ts';
/**
 * Whether a `Content-Type` is `application/json` in UTF-8: the type
 * case-insensitive, parameters allowed, but a `charset` other than UTF-8 is
 * refused (the body would be misread).
 */
export function isJsonMediaType(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  if (contentType === 'application/json') return true;
  const semicolon = contentType.indexOf(';');
  const type = trimOws(semicolon < 0 ? contentType : contentType.slice(0, semicolon)).toLowerCase();
  if (type !== 'application/json') return false;
  if (semicolon < 0) return true;
  for (const parameter of contentType.slice(semicolon + 1).split(';')) {
    const equals = parameter.indexOf('=');
    if (equals < 0) continue;
    if (trimOws(parameter.slice(0, equals)).toLowerCase() !== 'charset') continue;
    const charset = trimOws(parameter.slice(equals + 1))
      .replace(/^"(.*)"$/, '$1')
      .toLowerCase();
    if (charset !== 'utf-8' && charset !== 'utf8') return false;
  }
  return true;
}
