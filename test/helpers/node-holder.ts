/**
 * A stand-in for a Sibyl process holding an embedded chain: starts one node through
 * chain/anvil.ts on the port given and prints `{pid, port}` as one JSON line, then idles until
 * killed. `node --import tsx test/helpers/node-holder.ts <port> [die-with-parent: on|off]`.
 */
import { startAnvil } from '../../chain/anvil.js';

const [port, dieWithParent] = process.argv.slice(2);
const node = await startAnvil({ chainId: 8453, port: Number(port), dieWithParent: dieWithParent !== 'off' });
console.log(JSON.stringify({ pid: node.status().pid, port: node.port }));
setInterval(() => {}, 60_000);
