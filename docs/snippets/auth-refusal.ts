import type { Authenticate, AuthVerdict } from '@plant-store/core';

/**
 * A verifier of its own that says why it refuses: a token service that may be down
 * answers 503 (1104) with Retry-After instead of telling the client its token is bad.
 */
export function tokenServiceWithRefusals(endpoint: string): Authenticate {
  const authenticate = async (token: string): Promise<AuthVerdict> => {
    const answer = await fetch(endpoint, { method: 'POST', headers: { authorization: `Bearer ${token}` } }).catch(() => undefined);
    if (answer === undefined || answer.status >= 500) return { refused: 'unavailable', retryAfterSeconds: 5 };
    if (answer.status === 403) return { refused: 'insufficient-scope', scope: 'plants:write' };
    return answer.status === 204; // false: 401 (1101)
  };
  // The served document declares the 403 and 503 answers, and the token format.
  return Object.assign(authenticate, { describes: { refusals: ['insufficient-scope', 'unavailable'] as const } });
}
