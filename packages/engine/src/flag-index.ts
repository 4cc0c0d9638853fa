// The loaded flags in payload order, found by name. Neither part changes once made, so an engine
// and its forks share one until a load replaces it; a load that only updates flags already there
// keeps `positions` and copies `list`, so a streamed change to one of 10k flags copies an array,
// not a map of every name (`npm run bench -- engine`, "a one-flag delta on 10k flags").
import type { CompiledFeature } from './compile-feature.js'

export class FlagIndex {
  constructor(
    /** Each flag's index in `list`. */
    readonly positions: ReadonlyMap<string, number>,
    /** The compiled flags in payload order. */
    readonly list: readonly CompiledFeature[],
  ) {}

  get(name: string): CompiledFeature | undefined {
    const at = this.positions.get(name)
    return at === undefined ? undefined : this.list[at]
  }

  has(name: string): boolean {
    return this.positions.has(name)
  }

  /** The same names with some flags recompiled (`list` holds them at their places). */
  withList(list: readonly CompiledFeature[]): FlagIndex {
    return new FlagIndex(this.positions, list)
  }
}

/** Indexes the flags by name, in the order given. */
export function indexFlags(list: readonly CompiledFeature[]): FlagIndex {
  const positions = new Map<string, number>()
  for (let i = 0; i < list.length; i++) positions.set(list[i]!.name, i)
  return new FlagIndex(positions, list)
}

export const NO_FLAGS = new FlagIndex(new Map(), [])
