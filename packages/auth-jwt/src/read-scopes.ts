// Runs anywhere: plain data.

/**
 * The scopes a JWT's claims grant: the space-separated `scope` of RFC 8693
 * §4.2 (Auth0, Okta, Keycloak, Cognito) and `scp`, an array (Entra ID's
 * application tokens, Okta) or a space-separated string (Entra ID's
 * delegated tokens). A claim of any other shape grants nothing.
 *
 * @example
 * readScopes({ scope: 'plants:write openid' }).has('plants:write'); // true
 */
export function readScopes(claims: Readonly<Record<string, unknown>>): ReadonlySet<string> {
  const { scope, scp } = claims;
  const names = [
    ...(typeof scope === 'string' ? scope.split(' ') : []),
    ...(typeof scp === 'string' ? scp.split(' ') : Array.isArray(scp) ? scp.filter((name) => typeof name === 'string') : []),
  ];
  return new Set(names.filter((name) => name !== ''));
}
