// Runs on Node, in the standalone workerd launcher's front: the overload bound of the Worker behind it.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { OverloadGate } from '@plant-store/core';
import type { WorkerProxy } from './_proxy-to-worker.ts';

/**
 * Puts the overload gate in front of the Worker: inside a workerd request
 * time stands still, so the event-loop delay is sampled here, on Node, and
 * the requests the front has passed on and not yet answered are counted
 * here. A request the gate refuses never reaches workerd: `answerLocally`,
 * a handler over the same gate with the Worker's routes, answers it (503
 * with code 1503 and `Retry-After`, and `/healthz` its 200), so the
 * decision stays the core's. What the proxy answers locally anyway (other
 * methods, the docs files, a drain) goes to `answerLocally` untouched, whose
 * core takes and gives back its place in the gate as on Node: taken here
 * first, it would be counted twice, and refused with one other request in
 * flight under a bound of 2. `/healthz` and `/metrics` take no place, as in
 * the core, and go to the Worker, whose scrape holds its counts.
 */
export function gateFront(
  gate: OverloadGate,
  proxy: Pick<WorkerProxy, 'sort' | 'pass'>,
  answerLocally: (req: IncomingMessage, res: ServerResponse) => void,
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    // Sorted here, once, and handed on: the proxy does not look its route up again.
    const route = proxy.sort(req);
    if (route === 'local') return answerLocally(req, res);
    // Probes and scrapes take no place, as in the core: answered by the Worker whatever the load.
    if (route !== 'worker') return proxy.pass(req, res, route);
    if (gate.enter() !== undefined) return answerLocally(req, res);
    // 'close' comes once per response, answered or cut.
    res.once('close', () => gate.leave());
    proxy.pass(req, res, route);
  };
}
