// One bucket, several sends: the upstream refuses a body over its limit (the Vexil service takes
// 1 MiB, other upstreams less), and a refused body is dropped whole. Each part keeps the
// bucket's time window and a share of its flags, in order; together they hold every count once.
import type { MetricsBucket } from './metrics-bucket.js'

type Entry = [string, MetricsBucket['toggles'][string]]

/**
 * Parts whose JSON is at most `maxBytes` (UTF-8) each, filled in order. A single flag whose
 * counts alone are larger goes out on its own rather than being lost.
 */
export function splitBucket(bucket: MetricsBucket, maxBytes: number): MetricsBucket[] {
  // `{"start":…,"stop":…,"toggles":{}}`: the frame every part repeats.
  const frame = byteLength(JSON.stringify({ ...bucket, toggles: {} }))
  const groups: Entry[][] = [[]]
  let size = frame
  for (const entry of Object.entries(bucket.toggles)) {
    const group = groups[groups.length - 1]!
    // `"name":{…}`, and a comma before it unless it opens the part.
    const bytes = byteLength(JSON.stringify(entry[0])) + 1 + byteLength(JSON.stringify(entry[1])) + (group.length > 0 ? 1 : 0)
    if (group.length > 0 && size + bytes > maxBytes) {
      groups.push([entry])
      size = frame + bytes - 1
    } else {
      group.push(entry)
      size += bytes
    }
  }
  // fromEntries: a flag named "__proto__" stays a flag.
  return groups.map((group) => ({ ...bucket, toggles: Object.fromEntries(group) }))
}

// --- Internal helpers ---

const encoder = new TextEncoder()

/** UTF-8 bytes, in any runtime. */
function byteLength(text: string): number {
  return encoder.encode(text).length
}
