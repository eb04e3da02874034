// No fast wrong server wins: a contender must answer these as the contract (docs/contract.md) says first.
import { request as httpsRequest } from 'node:https';

/** @typedef {{ status: number, body: string }} Answer */
/** @typedef {[what: string, answer: Answer, expectedStatus: number]} Expectation */

/**
 * @param {string} url
 * @param {Record<string, string>} headers
 * @param {string} body
 * @param {string | undefined} ca for an `https:` URL, the certificate to trust (node:https, since fetch takes none)
 * @returns {Promise<Answer>}
 */
async function post(url, headers, body, ca) {
  if (!url.startsWith('https:')) {
    const response = await fetch(`${url}/plants`, { method: 'POST', headers, body });
    return { status: response.status, body: await response.text() };
  }
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      `${url}/plants`,
      { method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, ca, agent: false },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * The problems with a contender's answers to 401, 400, 200 and 409 cases; none means eligible.
 * @param {string} url
 * @param {string} token
 * @param {string} [ca] for an `https:` URL, the certificate to trust
 */
export async function checkBehaviour(url, token, ca) {
  const json = { 'content-type': 'application/json' };
  const auth = { ...json, authorization: `Bearer ${token}` };
  const id = 424242;
  /** @type {Expectation[]} */
  const expectations = [
    ['no token → 401', await post(url, json, `{"id":${id},"name":"a"}`, ca), 401],
    ['wrong token → 401', await post(url, { ...json, authorization: 'Bearer wrong' }, `{"id":${id},"name":"a"}`, ca), 401],
    ['id "5" → 400', await post(url, auth, '{"id":"5","name":"a"}', ca), 400],
    ['no name → 400', await post(url, auth, `{"id":${id}}`, ca), 400],
    ['create → 200', await post(url, auth, `{"id":${id},"name":"a","tag":"t"}`, ca), 200],
    ['replay → 200', await post(url, auth, `{"id":${id},"name":"a","tag":"t"}`, ca), 200],
    ['other name → 409', await post(url, auth, `{"id":${id},"name":"b"}`, ca), 409],
  ];
  const problems = expectations.filter(([, response, status]) => response.status !== status).map(([what, response]) => `${what}: got ${response.status}`);
  const created = /** @type {Expectation} */ (expectations[4])[1];
  if (created.status === 200 && JSON.parse(created.body).name !== 'a') problems.push(`create → 200: body ${created.body}`);
  return problems;
}
