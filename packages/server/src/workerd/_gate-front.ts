// Runs on Node, in the standalone workerd launcher's front: the overload bound of the Worker behind it.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { OverloadGate } from '@plant-store/core';

/**
 * Puts the overload gate in front of the Worker: inside a workerd request
 * time stands still, so the event-loop delay is sampled here, on Node, and
 * the requests the front has passed on and not yet answered are counted
 * here. A request the gate refuses never reaches workerd: `answerLocally`,
 * a handler over the same gate with the Worker's routes, answers it (503
 * with code 1503 and `Retry-After`, and `/healthz` its 200), so the
 * decision stays the core's.
 */
export function gateFront(
  gate: OverloadGate,
  passOn: (req: IncomingMessage, res: ServerResponse) => void,
  answerLocally: (req: IncomingMessage, res: ServerResponse) => void,
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    if (gate.enter() !== undefined) return answerLocally(req, res);
    // 'close' comes once per response, answered or cut.
    res.once('close', () => gate.leave());
    passOn(req, res);
  };
}
