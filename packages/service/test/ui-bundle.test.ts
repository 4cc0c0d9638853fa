// Issue 20: the admin UI's first load stays small. What the browser fetches before the first
// page shows (index.html's scripts and module preloads) must stay under 50 kB gzip; everything
// else (the pages beyond the flags list, Chart.js, the engine) loads when a page needs it.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { requireBuiltUi, UI_DIR } from './helpers/ui.js'

const BUDGET = 50 * 1024

/** The JavaScript files index.html loads or preloads, with their gzip sizes. */
function firstLoad(): { file: string; source: string; gzip: number }[] {
  const html = readFileSync(join(UI_DIR, 'index.html'), 'utf8')
  const paths = [...html.matchAll(/<(?:script[^>]*\bsrc|link[^>]*\bhref)="\/(assets\/[^"]+\.js)"/g)].map(
    (m) => m[1] as string,
  )
  return [...new Set(paths)].map((file) => {
    const source = readFileSync(join(UI_DIR, file), 'utf8')
    return { file, source, gzip: gzipSync(source, { level: 9 }).length }
  })
}

describe('the admin UI bundle', () => {
  it(`loads under ${BUDGET / 1024} kB of gzip JavaScript before the first page shows`, () => {
    requireBuiltUi()
    const files = firstLoad()
    expect(files.length).toBeGreaterThan(0)
    const total = files.reduce((sum, f) => sum + f.gzip, 0)
    console.log(
      `first-load JavaScript: ${files.map((f) => `${f.file} ${(f.gzip / 1024).toFixed(1)} kB`).join(', ')}; total ${(total / 1024).toFixed(1)} kB gzip`,
    )
    expect(total).toBeLessThan(BUDGET)
  })

  it('leaves the engine and Chart.js out of the first load', () => {
    requireBuiltUi()
    for (const { file, source } of firstLoad()) {
      // Text only the engine's constraint compiler and Chart.js hold.
      expect(source, file).not.toContain('the constraint never matches')
      expect(source, file).not.toContain('getDatasetMeta')
    }
  })
})
