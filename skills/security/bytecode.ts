/**
 * Reading deployed EVM bytecode instruction by instruction: PUSH1..PUSH32 operands are data, never
 * opcodes, and the CBOR metadata Solidity and Vyper append after the code is not code at all. The
 * owner-power scan (the PUSH4 selectors a contract dispatches on) and the hook radar (which
 * dangerous opcodes a hook can execute) both read code through this one walk.
 */

export const OPCODES = { CALLCODE: 0xf2, DELEGATECALL: 0xf4, SELFDESTRUCT: 0xff } as const;
export type NamedOpcode = keyof typeof OPCODES;

const PUSH1 = 0x60;
const PUSH4 = 0x63;
const PUSH32 = 0x7f;

function toBytes(code: string): Uint8Array {
  const hex = code.startsWith('0x') ? code.slice(2) : code;
  const out = new Uint8Array(hex.length >> 1);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/**
 * The code without its metadata trailer: the last two bytes give the trailer's length, and the
 * trailer is a CBOR map (first byte 0xa1-0xa5). Code without such a trailer is returned whole.
 */
export function withoutMetadata(code: Uint8Array): Uint8Array {
  if (code.length < 2) return code;
  const length = (code[code.length - 2]! << 8) | code[code.length - 1]!;
  const start = code.length - 2 - length;
  if (length === 0 || start < 0) return code;
  const first = code[start]!;
  return first >= 0xa1 && first <= 0xa5 ? code.subarray(0, start) : code;
}

/** Each instruction of the code in order, with its PUSH operand (empty for other opcodes). */
export function* instructions(code: string): Generator<{ at: number; op: number; operand: Uint8Array }> {
  const bytes = withoutMetadata(toBytes(code));
  for (let at = 0; at < bytes.length; ) {
    const op = bytes[at]!;
    const size = op >= PUSH1 && op <= PUSH32 ? op - PUSH1 + 1 : 0;
    yield { at, op, operand: bytes.subarray(at + 1, at + 1 + size) };
    at += 1 + size;
  }
}

/** Every PUSH4 operand of the code (how Solidity and Vyper dispatch on selectors), as 0x-prefixed hex. */
export function pushedSelectors(code: string): Set<string> {
  const found = new Set<string>();
  for (const { op, operand } of instructions(code)) {
    if (op === PUSH4 && operand.length === 4) found.add(`0x${[...operand].map((b) => b.toString(16).padStart(2, '0')).join('')}`);
  }
  return found;
}

/** Which of the named opcodes (DELEGATECALL, SELFDESTRUCT, CALLCODE) the code contains as instructions. */
export function namedOpcodes(code: string): NamedOpcode[] {
  const wanted = new Map(Object.entries(OPCODES).map(([name, op]) => [op as number, name as NamedOpcode]));
  const found = new Set<NamedOpcode>();
  for (const { op } of instructions(code)) {
    const name = wanted.get(op);
    if (name) found.add(name);
  }
  return [...found].sort();
}
