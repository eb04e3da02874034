// Baseline: a hand-written node:http server doing the same work.
import { createServer } from 'node:http';
import { createPlantLogic, host, port, token } from './baseline-logic.mjs';

const handle = createPlantLogic(token);
const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const query = req.url.indexOf('?');
    const body = chunks.length === 1 ? chunks[0].toString() : Buffer.concat(chunks).toString();
    const [status, json] = handle(req.method, query < 0 ? req.url : req.url.slice(0, query), req.headers.authorization, req.headers['content-type'], body);
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(json) });
    res.end(json);
  });
});
server.listen(port, host, () => console.log(`listening on http://${host}:${server.address().port}`));
