// Runs in the test process (Node): a create through a standalone server, as any client's, on fetch's own pool.
import { CONFORMANCE_TOKEN } from '@plant-store/testing';

/** Sends a create of `id` named `name` with the conformance token; resolves with the answer's status, its body read. */
export async function createStatus(baseUrl: string, id: number | bigint, name: string): Promise<number> {
  const response = await fetch(`${baseUrl}/plants`, {
    method: 'POST',
    headers: { authorization: `Bearer ${CONFORMANCE_TOKEN}`, 'content-type': 'application/json' },
    body: `{"id":${id},"name":${JSON.stringify(name)}}`,
  });
  await response.text();
  return response.status;
}
