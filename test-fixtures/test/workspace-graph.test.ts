// How the workspace's packages may depend on each other (DESIGN.md, Layout): every @vexil import
// in a package's source is declared in its package.json, the declared graph has no cycle, and the
// proxy and the service never know each other (the `vexil` command in @vexil/cli joins them).
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const ROOT = fileURLToPath(new URL('../../packages/', import.meta.url))

interface Pkg {
  dir: string
  name: string
  runtime: string[]
  dev: string[]
}

const packages: Pkg[] = readdirSync(ROOT).map((dir) => {
  const json = JSON.parse(readFileSync(join(ROOT, dir, 'package.json'), 'utf8'))
  const ours = (deps: Record<string, string> = {}) => Object.keys(deps).filter((name) => name.startsWith('@vexil/'))
  return { dir, name: json.name, runtime: ours(json.dependencies), dev: ours(json.devDependencies) }
})

/** Every `@vexil/...` package a package's src/ imports (static or dynamic). */
function importedBySource(dir: string): Set<string> {
  const found = new Set<string>()
  const src = join(ROOT, dir, 'src')
  for (const file of readdirSync(src, { recursive: true, encoding: 'utf8' })) {
    if (!/\.tsx?$/.test(file)) continue
    for (const [, name] of readFileSync(join(src, file), 'utf8').matchAll(/['"](@vexil\/[a-z-]+)(?:\/[^'"]*)?['"]/g))
      found.add(name as string)
  }
  found.delete(packages.find((p) => p.dir === dir)?.name as string)
  return found
}

describe('the workspace package graph', () => {
  it.each(packages.map((p) => [p.name, p] as const))(
    '%s declares every @vexil package its source imports',
    (_, pkg) => {
      expect([...importedBySource(pkg.dir)].filter((name) => !pkg.runtime.includes(name)).sort()).toEqual([])
    },
  )

  it('has no cycle, counting dev dependencies too', () => {
    const edges = new Map(packages.map((p) => [p.name, [...p.runtime, ...p.dev]]))
    const state = new Map<string, 'visiting' | 'done'>()
    const cycles: string[] = []
    const visit = (name: string, path: string[]) => {
      if (state.get(name) === 'done') return
      if (state.get(name) === 'visiting') {
        cycles.push([...path.slice(path.indexOf(name)), name].join(' -> '))
        return
      }
      state.set(name, 'visiting')
      for (const next of edges.get(name) ?? []) visit(next, [...path, name])
      state.set(name, 'done')
    }
    for (const name of edges.keys()) visit(name, [])
    expect(cycles).toEqual([])
  })

  it('keeps the proxy and the service apart, and the engine, server-kit and sync at the bottom', () => {
    const deps = (name: string) => {
      const pkg = packages.find((p) => p.name === name) as Pkg
      return [...pkg.runtime, ...pkg.dev]
    }
    expect(deps('@vexil/proxy')).not.toContain('@vexil/service')
    expect(deps('@vexil/service')).not.toContain('@vexil/proxy')
    expect(deps('@vexil/engine')).toEqual([])
    expect(deps('@vexil/server-kit')).toEqual([])
    expect(deps('@vexil/sync')).toEqual(['@vexil/engine'])
    expect([...importedBySource('cli')].sort()).toEqual(['@vexil/proxy', '@vexil/server-kit', '@vexil/service'])
  })

  it('keeps @vexil/sync framework-free: no dependency but the engine, and no node:http in its source', () => {
    const json = JSON.parse(readFileSync(join(ROOT, 'sync', 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>
    }
    expect(Object.keys(json.dependencies ?? {})).toEqual(['@vexil/engine'])
    const src = join(ROOT, 'sync', 'src')
    for (const file of readdirSync(src, { recursive: true, encoding: 'utf8' })) {
      if (/\.ts$/.test(file))
        expect(readFileSync(join(src, file), 'utf8'), file).not.toMatch(/from 'node:(http|https|net|zlib)'/)
    }
  })
})
