/**
 * Sibyl's genesis marker: a few bytes of runtime code at a fixed address, written by the devnet
 * as the last step of a chain's genesis and naming that chain. A node is used as Sibyl's
 * embedded chain only while it answers the chain's id and carries the marker for it, so a node
 * someone else left on the port (an anvil on 8545 with chain 31337, another project's devnet) is
 * never taken for it, and a reloaded state is known to hold a complete genesis.
 */
import { createPublicClient, http, stringToHex, type Address, type Hex } from 'viem';

export const GENESIS_MARKER_ADDRESS: Address = '0x00000000000000000000000000000000519b6e15';

/** PUSH32 "sibyl-genesis:v1:<chainId>", MSTORE at 0, RETURN 32 bytes: a call answers the text. */
export function genesisMarkerCode(chainId: number): Hex {
  return `0x7f${stringToHex(`sibyl-genesis:v1:${chainId}`, { size: 32 }).slice(2)}60005260206000f3`;
}

/** What a client needs to tell Sibyl's devnet from another node. */
export interface NodeReads {
  getChainId(): Promise<number>;
  getCode(args: { address: Address }): Promise<Hex | undefined>;
}

/** Why the node is not Sibyl's devnet for `chainId`, or null when it is. */
export async function notSibylDevnet(node: NodeReads, chainId: number): Promise<string | null> {
  const [answered, code] = await Promise.all([node.getChainId(), node.getCode({ address: GENESIS_MARKER_ADDRESS })]);
  if (answered !== chainId) return `the node answers chain id ${answered}, not ${chainId}: it is not Sibyl's devnet`;
  if (code?.toLowerCase() !== genesisMarkerCode(chainId)) return `the node has no Sibyl genesis marker for chain ${chainId} at ${GENESIS_MARKER_ADDRESS}: it is not Sibyl's devnet`;
  return null;
}

/** Why the node does not answer `chainId`, or null when it does (for chains Sibyl reads but did not build). */
export async function wrongChain(node: Pick<NodeReads, 'getChainId'>, chainId: number): Promise<string | null> {
  const answered = await node.getChainId();
  return answered === chainId ? null : `the node answers chain id ${answered}, not ${chainId}`;
}

/** Writes the marker: the last step of a chain's genesis. */
export async function writeGenesisMarker(rpcUrl: string, chainId: number): Promise<void> {
  const res = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'anvil_setCode', params: [GENESIS_MARKER_ADDRESS, genesisMarkerCode(chainId)] }),
  });
  const { error } = (await res.json()) as { error?: { message: string } };
  if (error) throw new Error(`anvil_setCode (genesis marker): ${error.message}`);
}

/** Throws unless the node at `rpcUrl` is Sibyl's devnet for the chain. */
export async function assertSibylDevnet(rpcUrl: string, chainId: number, name: string): Promise<void> {
  const why = await notSibylDevnet(createPublicClient({ transport: http(rpcUrl) }), chainId);
  if (why) throw new Error(`${name} at ${rpcUrl}: ${why}`);
}
