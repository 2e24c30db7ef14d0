/**
 * The Merkle tree of a merkle-distributor airdrop, as Uniswap's MerkleDistributor builds it and
 * OpenZeppelin's MerkleProof checks it: a leaf is keccak256(abi.encodePacked(uint256 index,
 * address account, uint256 amount)); the leaves are sorted and each pair is hashed in sorted
 * order, an odd one out moving up unchanged. The world builds its airdrops with it and the
 * airdrop engine rebuilds them from the leaves published on chain.
 */
import { concat, encodePacked, keccak256, type Address, type Hex } from 'viem';

export interface AirdropLeaf {
  readonly index: bigint;
  readonly account: Address;
  readonly amount: bigint;
}

export function leafHash(leaf: AirdropLeaf): Hex {
  return keccak256(encodePacked(['uint256', 'address', 'uint256'], [leaf.index, leaf.account, leaf.amount]));
}

/** OpenZeppelin's commutative pair hash: the smaller word first. */
function pairHash(a: Hex, b: Hex): Hex {
  return keccak256(a < b ? concat([a, b]) : concat([b, a]));
}

export class AirdropTree {
  /** Bottom layer first; the root is the single word of the last. */
  private readonly layers: Hex[][];
  private readonly positions = new Map<Hex, number>();

  constructor(leaves: readonly AirdropLeaf[]) {
    if (!leaves.length) throw new Error('an airdrop tree needs at least one leaf');
    // Lower-case hex of one length sorts as the bytes do.
    const bottom = [...new Set(leaves.map((l) => leafHash(l).toLowerCase() as Hex))].sort();
    bottom.forEach((h, i) => this.positions.set(h, i));
    this.layers = [bottom];
    for (let layer = bottom; layer.length > 1;) {
      const next: Hex[] = [];
      for (let i = 0; i < layer.length; i += 2) next.push(i + 1 < layer.length ? pairHash(layer[i]!, layer[i + 1]!) : layer[i]!);
      this.layers.push((layer = next));
    }
  }

  get root(): Hex {
    return this.layers.at(-1)![0]!;
  }

  /** The sibling words from the leaf up (what `claim` takes); throws for a leaf not in the tree. */
  proof(leaf: AirdropLeaf): Hex[] {
    let position = this.positions.get(leafHash(leaf).toLowerCase() as Hex);
    if (position === undefined) throw new Error(`leaf ${leaf.index} is not in the tree`);
    const proof: Hex[] = [];
    for (const layer of this.layers.slice(0, -1)) {
      const sibling = position % 2 === 0 ? position + 1 : position - 1;
      if (sibling < layer.length) proof.push(layer[sibling]!);
      position = Math.floor(position / 2);
    }
    return proof;
  }
}
