/**
 * The `tools/call` a request body carries, read with the SDK's own schemas (`isJSONRPCRequest`,
 * `CallToolRequestSchema`): the HTTP layer needs the tool name before dispatch only to answer what
 * HTTP must (401 for a paid tool without an account, 402 for a per-call tool without payment).
 */
import { CallToolRequestSchema, isJSONRPCRequest, type RequestId } from '@modelcontextprotocol/sdk/types.js';

export interface ToolCall {
  readonly id: RequestId;
  readonly name: string;
  readonly args: Record<string, unknown>;
}

/** The call, or null for any other message (Streamable HTTP carries no batches since 2025-06-18). */
export function toolCallOf(body: unknown): ToolCall | null {
  if (!isJSONRPCRequest(body)) return null;
  const call = CallToolRequestSchema.safeParse(body);
  return call.success ? { id: body.id, name: call.data.params.name, args: call.data.params.arguments ?? {} } : null;
}
