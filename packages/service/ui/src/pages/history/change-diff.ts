// What an event changed, as rows a person reads: each leaf of preData and data by its path
// (`strategies[0].parameters.rollout`), with its value before and after; unchanged leaves left out.

export interface DiffRow {
  path: string
  before: string | undefined
  after: string | undefined
}

/** Rows past this many are summarised: a change to a huge segment stays readable. */
export const MAX_DIFF_ROWS = 200

/** Fields every row of an object carries that say nothing about the change. */
const NOISE = new Set(['createdAt', 'lastSeenAt', 'createdByUserId'])

/** The rows, and whether the event made the thing (no before) or removed it (no after). */
export interface ChangeDiff {
  kind: 'changed' | 'created' | 'removed'
  rows: DiffRow[]
}

/** Values that say nothing about a thing made or removed (`title: null`, `constraints: []`). */
const EMPTY = new Set(['null', '[]', '{}', '""'])

export function diffChange(before: unknown, after: unknown): ChangeDiff {
  const old = flatten(before)
  const now = flatten(after)
  if (old.size === 0 || now.size === 0) {
    const kind = old.size === 0 ? 'created' : 'removed'
    const rows = [...(kind === 'created' ? now : old)]
      .filter(([, value]) => !EMPTY.has(value))
      .map(([path, value]) =>
        kind === 'created' ? { path, before: undefined, after: value } : { path, before: value, after: undefined },
      )
    return { kind, rows }
  }
  const rows: DiffRow[] = []
  for (const path of new Set([...old.keys(), ...now.keys()])) {
    const a = old.get(path)
    const b = now.get(path)
    if (a !== b) rows.push({ path, before: a, after: b })
  }
  return { kind: 'changed', rows }
}

/** Leaves by path, each a short JSON text; an empty object or list is a leaf of its own. */
function flatten(value: unknown): Map<string, string> {
  const leaves = new Map<string, string>()
  const visit = (node: unknown, path: string) => {
    if (Array.isArray(node) && node.length > 0) {
      for (const [i, item] of node.entries()) visit(item, `${path}[${i}]`)
      return
    }
    if (node !== null && typeof node === 'object' && !Array.isArray(node) && Object.keys(node).length > 0) {
      for (const [key, item] of Object.entries(node)) {
        if (!NOISE.has(key)) visit(item, path ? `${path}.${key}` : key)
      }
      return
    }
    if (node === undefined || (node === null && path === '')) return
    leaves.set(path || '(value)', JSON.stringify(node))
  }
  visit(value, '')
  return leaves
}
