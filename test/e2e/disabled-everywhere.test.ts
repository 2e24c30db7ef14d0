/**
 * One resolution rule: a skill declared here but turned off on this deployment is refused with the
 * same code and status on every surface that sells it — the A2A endpoint, A2A JSON-RPC (official
 * client), a typed capability body on the report path, the paid MCP tool kind that names it, and
 * the pages' example endpoint — before any payment, and no money moves. The expected codes come
 * from each skill's own refusal, not from the transports.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Role, TaskState, type Message, type Task } from '@a2a-js/sdk';
import { ClientFactory } from '@a2a-js/sdk/client';
import { createRegistry } from '../../skills/catalog/index.js';
import { PAID_TOOLS } from '../../skills/catalog/paid-tools.js';
import { ERROR_CODES, type ErrorCode } from '../../skills/core/errors.js';
import { EXAMPLES_PATH } from '../../web/index.js';
import { creditedMcpClient } from '../helpers/mcp-credits.js';
import { json, postJson, rpcUrl, useTestSibyl, TEST_SERVER_PARTS } from '../helpers/sibyl.js';

// As the test server is (TEST_SERVER_PARTS).
const registry = createRegistry([], TEST_SERVER_PARTS);

/** A planned skill of the spec, one off for want of a Bitcoin chain, one for want of a QRNG provider. */
const CASES: { id: string; code: ErrorCode }[] = [
  { id: 'strategy-gate', code: 'domain_disabled' },
  { id: 'runes-analytics', code: 'domain_disabled' },
  { id: 'quantum-hardware-qrng', code: 'provider_unavailable' },
];

/** The paid MCP tool and kind that sell a skill. */
function kindOf(id: string): { tool: string; args: Record<string, unknown> } {
  for (const tool of PAID_TOOLS) {
    // A tool of one kind takes no kind field.
    const single = Object.keys(tool.kinds).length < 2;
    for (const [kind, k] of Object.entries(tool.kinds)) if (k.skill === id) return { tool: tool.name, args: single ? {} : { [tool.kindField ?? 'kind']: kind } };
  }
  throw new Error(`no paid MCP kind sells ${id}`);
}

function message(parts: Message['parts']): Message {
  return { messageId: randomUUID(), contextId: '', taskId: '', role: Role.ROLE_USER, parts, metadata: undefined, extensions: [], referenceTaskIds: [] };
}
const data = (value: unknown) => ({ content: { $case: 'data' as const, value }, metadata: undefined, filename: '', mediaType: 'application/json' });

describe('a skill turned off is refused the same way on every surface', () => {
  const sibyl = useTestSibyl();

  it('each case is declared and off on this deployment, with the expected code', () => {
    for (const { id, code } of CASES) {
      const skill = registry.byId(id)!;
      expect(skill, id).toBeDefined();
      expect(registry.published().includes(skill), id).toBe(false);
      expect(() => registry.resolve(null, { id }), id).toThrow(expect.objectContaining({ code }));
    }
  });

  it('A2A over HTTP, a typed capability body on the report path, and the example endpoint: the same status and code, no 402', async () => {
    for (const { id, code } of CASES) {
      const status = ERROR_CODES[code].status;
      const a2a = await postJson(`${sibyl.url}/api/a2a/skills/${id}`, { params: {} });
      expect([a2a.status, (await json(a2a)).error?.code], `a2a ${id}`).toEqual([status, code]);
      const report = await postJson(`${sibyl.url}/x402/svc/report`, { service: id });
      expect([report.status, (await json(report)).error?.code], `report ${id}`).toEqual([status, code]);
      const example = await fetch(`${sibyl.url}${EXAMPLES_PATH}/${id}`);
      expect([example.status, (await json(example)).error?.code], `example ${id}`).toEqual([status, code]);
    }
  });

  it('A2A JSON-RPC with the official client: the task is rejected with the code, and no payment is asked for', async () => {
    const a2a = await new ClientFactory().createFromUrl(sibyl.url);
    for (const { id, code } of CASES) {
      const task = (await a2a.sendMessage({ message: message([data({ skill: id, params: {} })]) } as never)) as Task;
      expect(task.status!.state, id).toBe(TaskState.TASK_STATE_REJECTED);
      expect(JSON.stringify(task.status!.message), id).toContain(code);
      expect(JSON.stringify(task.metadata ?? {}), id).not.toContain('payment-required');
    }
  });

  it('the paid MCP tool kind answers available: false with the same code, and debits nothing', async () => {
    const { client, credits } = await creditedMcpClient(sibyl.url, rpcUrl(), '1');
    const before = await credits();
    for (const { id, code } of CASES) {
      const { tool, args } = kindOf(id);
      const result = await client.callTool({ name: tool, arguments: args });
      expect(result.structuredContent, `${tool} ${JSON.stringify(args)}`).toMatchObject({ available: false, reason: code, skill: id });
    }
    expect(await credits()).toBe(before);
    await client.close();
  });
});
