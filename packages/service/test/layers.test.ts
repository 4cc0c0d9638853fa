// The service's layers (issue 14, item 3): routes read and validate a request, call a domain
// operation (src/domain/) and shape the answer; the domain writes the change and its event-log
// rows. The action runner and the demo seed call the same operations, never a route module.
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const SRC = join(import.meta.dirname, '../src')

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sources(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  )
}

const files = sources(SRC).map((path) => ({ path: relative(SRC, path), text: readFileSync(path, 'utf8') }))
const imports = (text: string) => [...text.matchAll(/from '([^']+)'/g)].map((match) => match[1] as string)
/** The source file an import of `file` names, relative to src/ (`events.js` is src/events.ts). */
const target = (file: { path: string }, spec: string) => relative(SRC, resolve(SRC, dirname(file.path), spec))

describe('service layers', () => {
  it('no route handler writes the event log itself: every change goes through src/domain', () => {
    const writers = files.filter(
      (file) =>
        file.path.startsWith('routes/') && imports(file.text).some((spec) => target(file, spec) === 'events.js'),
    )
    expect(writers.map((file) => file.path)).toEqual([])
  })

  it('nothing outside src/routes imports a route module, but the app that mounts them and the access kinds auth checks', () => {
    const importers = files.filter(
      (file) => !file.path.startsWith('routes/') && imports(file.text).some((spec) => spec.includes('/routes/')),
    )
    expect(importers.map((file) => file.path).sort()).toEqual(['app.ts', 'auth.ts'])
    const auth = files.find((file) => file.path === 'auth.ts')
    expect(imports(auth?.text ?? '').filter((spec) => spec.includes('/routes/'))).toEqual(['./routes/api-router.js'])
  })
})
