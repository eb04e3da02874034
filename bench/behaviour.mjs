// No fast wrong server wins: a contender must answer these as the contract (docs/contract.md) says first.

/** @typedef {{ status: number, body: string }} Answer */
/** @typedef {[what: string, answer: Answer, expectedStatus: number]} Expectation */

/**
 * @param {string} url
 * @param {Record<string, string>} headers
 * @param {string} body
 * @returns {Promise<Answer>}
 */
async function post(url, headers, body) {
  const response = await fetch(`${url}/plants`, { method: 'POST', headers, body });
  return { status: response.status, body: await response.text() };
}

/**
 * The problems with a contender's answers to 401, 400, 200 and 409 cases; none means eligible.
 * @param {string} url
 * @param {string} token
 */
export async function checkBehaviour(url, token) {
  const json = { 'content-type': 'application/json' };
  const auth = { ...json, authorization: `Bearer ${token}` };
  const id = 424242;
  /** @type {Expectation[]} */
  const expectations = [
    ['no token → 401', await post(url, json, `{"id":${id},"name":"a"}`), 401],
    ['wrong token → 401', await post(url, { ...json, authorization: 'Bearer wrong' }, `{"id":${id},"name":"a"}`), 401],
    ['id "5" → 400', await post(url, auth, '{"id":"5","name":"a"}'), 400],
    ['no name → 400', await post(url, auth, `{"id":${id}}`), 400],
    ['create → 200', await post(url, auth, `{"id":${id},"name":"a","tag":"t"}`), 200],
    ['replay → 200', await post(url, auth, `{"id":${id},"name":"a","tag":"t"}`), 200],
    ['other name → 409', await post(url, auth, `{"id":${id},"name":"b"}`), 409],
  ];
  const problems = expectations.filter(([, response, status]) => response.status !== status).map(([what, response]) => `${what}: got ${response.status}`);
  const created = /** @type {Expectation} */ (expectations[4])[1];
  if (created.status === 200 && JSON.parse(created.body).name !== 'a') problems.push(`create → 200: body ${created.body}`);
  return problems;
}
