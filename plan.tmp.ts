import { OfflinePlanner } from './graph/offline-planner.js';
import { agentTools } from './graph/tools.js';
import { createRegistry } from './skills/index.js';
const p = new OfflinePlanner(agentTools(createRegistry()));
for (const q of process.argv.slice(2)) {
  const plan = p.plan(q);
  console.log(q, '=>', plan.kind === 'call' ? plan.calls.map((c) => `${c.tool.skill.id} ${JSON.stringify(c.args)}`).join(' | ') : `${plan.reason}`);
}
