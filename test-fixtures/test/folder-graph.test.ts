// Folders that say what they hold (issue 42, item 3): within each package's src/, the top-level
// folders are layers, and a relative import from one folder into another is an edge between
// them. Files directly in src/ (the entry, the config) are not nodes. The graph must have no
// cycle: a cycle is two folders that cannot be read, moved or tested one without the other.
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const ROOT = fileURLToPath(new URL('../../packages/', import.meta.url))

/** Every workspace package under packages/. */
const PACKAGES = readdirSync(ROOT, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort()

/** Folder → folder it imports → one import that makes the edge (`file -> specifier`). */
type FolderGraph = Map<string, Map<string, string>>

const IMPORT = /(?:\bfrom|\bimport)\s*\(?\s*['"](\.{1,2}\/[^'"]*)['"]/g

function folderGraph(src: string): FolderGraph {
  const folders = new Set(
    readdirSync(src, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name),
  )
  const folderOf = (path: string) => {
    const [first] = relative(src, path).split(sep)
    return first !== undefined && folders.has(first) ? first : undefined
  }
  const graph: FolderGraph = new Map([...folders].map((folder) => [folder, new Map()]))
  for (const file of readdirSync(src, { recursive: true, encoding: 'utf8' })) {
    if (!/\.(ts|tsx|mts)$/.test(file)) continue
    const path = join(src, file)
    const from = folderOf(path)
    if (from === undefined) continue
    for (const [, specifier] of readFileSync(path, 'utf8').matchAll(IMPORT)) {
      const to = folderOf(resolve(dirname(path), specifier as string))
      if (to === undefined || to === from) continue
      const edges = graph.get(from) as Map<string, string>
      if (!edges.has(to)) edges.set(to, `${file.split(sep).join('/')} -> ${specifier}`)
    }
  }
  return graph
}

/** The strongly connected components of more than one node (Tarjan's algorithm): folders that import each other. */
function findComponents(graph: ReadonlyMap<string, ReadonlyMap<string, unknown>>): string[][] {
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const components: string[][] = []
  const connect = (node: string) => {
    index.set(node, index.size)
    low.set(node, index.get(node) as number)
    stack.push(node)
    for (const next of graph.get(node)?.keys() ?? []) {
      if (!index.has(next)) {
        connect(next)
        low.set(node, Math.min(low.get(node) as number, low.get(next) as number))
      } else if (stack.includes(next)) {
        low.set(node, Math.min(low.get(node) as number, index.get(next) as number))
      }
    }
    if (low.get(node) !== index.get(node)) return
    const component = stack.splice(stack.indexOf(node))
    if (component.length > 1 || graph.get(node)?.has(node)) components.push(component)
  }
  for (const node of graph.keys()) if (!index.has(node)) connect(node)
  return components
}

/** One cycle per component, as the path from a folder back to itself. */
function findCycles(graph: ReadonlyMap<string, ReadonlyMap<string, unknown>>): string[][] {
  return findComponents(graph).map((component) => cycleThrough(graph, component))
}

/** The shortest path from the component's first node back to it, within the component. */
function cycleThrough(graph: ReadonlyMap<string, ReadonlyMap<string, unknown>>, component: string[]): string[] {
  const [start] = component as [string]
  const inside = new Set(component)
  const cameFrom = new Map<string, string>()
  const queue = [start]
  for (let node = queue.shift(); node !== undefined; node = queue.shift()) {
    for (const next of graph.get(node)?.keys() ?? []) {
      if (!inside.has(next)) continue
      if (next === start) {
        const path = [node]
        while (path[0] !== start) path.unshift(cameFrom.get(path[0] as string) as string)
        return [...path, start]
      }
      if (!cameFrom.has(next)) {
        cameFrom.set(next, node)
        queue.push(next)
      }
    }
  }
  return [...component, start]
}

/** A cycle as a failure reads it: the folders in order, then one import for each edge. */
function describeCycle(graph: FolderGraph, cycle: string[]): string {
  const edges = cycle.slice(1).map((to, i) => `  ${cycle[i]}/ -> ${to}/: ${graph.get(cycle[i] as string)?.get(to)}`)
  return [`${cycle.map((folder) => `${folder}/`).join(' -> ')}`, ...edges].join('\n')
}

/** Every cycle of a package's folders, each with the other folders of its component. */
function describeCycles(graph: FolderGraph): string[] {
  return findComponents(graph).map((component) => {
    const cycle = cycleThrough(graph, component)
    const others = component.filter((folder) => !cycle.includes(folder))
    return (
      describeCycle(graph, cycle) +
      (others.length > 0 ? `\n  (in a knot with ${others.map((folder) => `${folder}/`).join(', ')} too)` : '')
    )
  })
}

describe('the cycle finder', () => {
  const graphOf = (edges: Record<string, string[]>) =>
    new Map(Object.entries(edges).map(([from, tos]) => [from, new Map(tos.map((to) => [to, '']))]))

  it('finds none in a layered graph', () => {
    expect(
      findCycles(
        graphOf({ routes: ['domain', 'store'], domain: ['store', 'schemas'], store: ['schemas'], schemas: [] }),
      ),
    ).toEqual([])
  })

  it('finds a cycle of two folders, and one of three apart from it', () => {
    const cycles = findCycles(graphOf({ a: ['b'], b: ['a', 'c'], c: ['d'], d: ['e'], e: ['c'] }))
    expect(cycles.map((cycle) => cycle.join(' -> ')).sort()).toEqual(['a -> b -> a', 'c -> d -> e -> c'])
  })

  it('names the shortest way round a component with many edges', () => {
    expect(findCycles(graphOf({ a: ['b', 'c'], b: ['c'], c: ['d'], d: ['a', 'b'] }))).toEqual([['a', 'c', 'd', 'a']])
  })

  it('describes each edge of a cycle by one import, and the other folders of its knot', () => {
    const graph: FolderGraph = new Map([
      ['schemas', new Map([['store', 'schemas/action-set.ts -> ../store/action-sets.js']])],
      [
        'store',
        new Map([
          ['schemas', 'store/strategies.ts -> ../schemas/strategy.js'],
          ['actions', 'store/x.ts -> ../actions/y.js'],
        ]),
      ],
      ['actions', new Map([['schemas', 'actions/filters.ts -> ../schemas/action-set.js']])],
    ])
    expect(describeCycles(graph)).toEqual([
      [
        'schemas/ -> store/ -> schemas/',
        '  schemas/ -> store/: schemas/action-set.ts -> ../store/action-sets.js',
        '  store/ -> schemas/: store/strategies.ts -> ../schemas/strategy.js',
        '  (in a knot with actions/ too)',
      ].join('\n'),
    ])
  })
})

describe("each package's top-level folders", () => {
  it.each(PACKAGES)('%s: no import cycle between the folders of src/', (name) => {
    const graph = folderGraph(join(ROOT, name, 'src'))
    expect(describeCycles(graph)).toEqual([])
  })
})
