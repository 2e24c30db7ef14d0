/**
 * `npm run eval:report [file.jsonl] [--verbose]`: routes every prompt of the report development
 * set through the offline planner in its graph seat (the chat model whose tool calls the report
 * graph acts on) and prints the share
 * whose first tool is one of `expectAnyOf` and the share whose arguments match `expectArgs`.
 * Prompts whose expected skill is a declared domain without an engine are counted as routed when
 * the planner refuses them before payment naming that skill or its domain (`domain_disabled`),
 * and are also reported apart. A prompt to refuse may give the `domain` it is about
 * (test/fixtures/report-fit-heldout.jsonl): the refusals that name it are counted too.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { AIMessage, HumanMessage } from '@langchain/core/messages';
import { OfflineChatModel } from '../graph/offline/chat-model.js';
import { agentTools, unavailableTools } from '../graph/tools.js';
import { createRegistry } from '../skills/catalog/index.js';
import { missingCapability, PLANNED_SKILLS } from '../skills/catalog/planned.js';

/** `expectRefusal`: nothing fits (off-topic, injection only); the planner must refuse, uncharged. */
interface Case { prompt: string; expectAnyOf: string[]; expectArgs?: Record<string, string>; expectRefusal?: boolean; domain?: string }

const file = resolve(process.argv.slice(2).find((a) => !a.startsWith('--')) ?? '../shared/eval/report-prompts.dev.jsonl');
const cases: Case[] = readFileSync(file, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
const registry = createRegistry();
const tools = [...agentTools(registry), ...unavailableTools(registry)];
const planner = new OfflineChatModel(tools);
const verbose = process.argv.includes('--verbose');
const disabled = new Set<string>(PLANNED_SKILLS.map((s) => s.id));
/** The planned domains a fixture's domain stands for (the issue's "strategies" take regime classification, whose models are `signals`). */
const domainsOf = (domain: string) => (domain === 'strategies' ? ['strategies', 'signals'] : [domain]);
const missingOf = (reply: AIMessage) => reply.additional_kwargs.missing as { skill: string; domain: string | null } | undefined;

let toolHits = 0;
let argHits = 0;
let servable = 0;
let servableToolHits = 0;
let servableArgHits = 0;
let refusals = 0;
let refusalHits = 0;
let wrongRefusals = 0;
let domainRefusals = 0;
let domainNamed = 0;
for (const c of cases) {
  const reply: AIMessage = await planner.invoke([new HumanMessage(c.prompt)]);
  const first = reply.tool_calls?.[0];
  const missing = missingOf(reply);
  if (c.expectRefusal) {
    refusals++;
    refusalHits += Number(!first);
    const named = !first && !!c.domain && !!missing?.domain && domainsOf(c.domain).includes(missing.domain);
    domainRefusals += Number(!!c.domain);
    domainNamed += Number(named);
    if (verbose || first || (c.domain && !named)) console.log(`${first ? 'MISS' : named || !c.domain ? 'ok  ' : 'ok, domain not named'} (refusal${c.domain ? `, ${c.domain}` : ''}) | ${c.prompt}\n      got  ${first ? `${first.name} ${JSON.stringify(first.args)}` : `reply: ${String(reply.additional_kwargs.reason ?? '')}${missing ? ` ${missing.skill} (${missing.domain})` : ''}`}`);
    continue;
  }
  // A question about a capability without an engine is answered by refusing it before payment, naming it.
  const refusedAsPlanned = !first && !!missing && c.expectAnyOf.some((id) => id === missing.skill || (disabled.has(id) && missingCapability(registry.byId(id)!)?.domain === missing.domain));
  wrongRefusals += Number(!first && !refusedAsPlanned);
  const call = first && { tool: tools.find((t) => t.name === first.name)!, args: first.args };
  if (refusedAsPlanned) {
    toolHits++;
    argHits++;
    if (verbose) console.log(`ok   (no engine) | ${c.prompt}\n      got  reply: domain_disabled ${missing.skill}`);
    continue;
  }
  const toolOk = !!call && c.expectAnyOf.includes(call.tool.skill.id);
  const argsOk = toolOk && Object.entries(c.expectArgs ?? {}).every(([k, v]) => String(call!.args[k] ?? '').toLowerCase() === String(v).toLowerCase());
  const canServe = c.expectAnyOf.some((id) => registry.byId(id)?.surfaces.includes('agent') && !disabled.has(id));
  toolHits += Number(toolOk);
  argHits += Number(argsOk);
  if (canServe) {
    servable++;
    servableToolHits += Number(toolOk);
    servableArgHits += Number(argsOk);
  }
  if (verbose || !argsOk) {
    const got = call ? `${call.tool.skill.id} ${JSON.stringify(call.args)}` : `reply: ${String(reply.additional_kwargs.reason ?? '')}`;
    console.log(`${toolOk ? (argsOk ? 'ok  ' : 'ARGS') : 'MISS'}${canServe ? '' : ' (no engine)'} | ${c.prompt}\n      want ${c.expectAnyOf.join('|')} ${JSON.stringify(c.expectArgs ?? {})}\n      got  ${got}`);
  }
}
const pct = (a: number, b: number) => (b ? ((100 * a) / b).toFixed(1) : 'n/a');
const asked = cases.length - refusals;
console.log(`\n${file}: ${cases.length} prompts (${asked} questions a skill answers, ${refusals} to refuse)`);
console.log(`first tool in expectAnyOf: ${toolHits}/${asked} = ${pct(toolHits, asked)}%`);
console.log(`expected arguments:        ${argHits}/${asked} = ${pct(argHits, asked)}%`);
console.log(`refused uncharged:         ${refusalHits}/${refusals} of those to refuse; ${wrongRefusals}/${asked} answerable questions refused`);
console.log(`prompts a working skill answers (${servable}): first tool ${pct(servableToolHits, servable)}%, arguments ${pct(servableArgHits, servable)}%`);
console.log(`prompts for a domain without an engine (${asked - servable}): refused before payment naming it ${toolHits - servableToolHits}`);
if (domainRefusals) console.log(`refusals naming the missing domain: ${domainNamed}/${domainRefusals}`);
