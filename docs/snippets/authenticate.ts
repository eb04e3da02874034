import type { Authenticate } from '@plant-store/core';

/** Asks a token service; only `true` accepts, a throw or rejection answers 500. */
export function tokenService(endpoint: string): Authenticate {
  return async (token) => {
    const answer = await fetch(endpoint, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    return answer.status === 204;
  };
}
