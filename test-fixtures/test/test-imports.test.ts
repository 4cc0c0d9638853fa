// A package's tests reach another package by its name (STYLE.md 14): `@vexil/proxy`, a helper in
// `@vexil/test-fixtures`, an export of `@vexil/bench`; never by a relative path into another
// package's folder (`../../proxy/dist`, `../../cli/test/helpers`, `../../../bench`), which
// bypasses the package's exports and its declared dependencies.
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const PACKAGES = fileURLToPath(new URL('../../packages/', import.meta.url))

/** Every module specifier `source` names: static imports and re-exports, side-effect and dynamic imports, require. */
function importedSpecifiers(source: string): string[] {
  const patterns = [
    /\bfrom\s*['"]([^'"]+)['"]/g,
    /\bimport\s*['"]([^'"]+)['"]/g,
    /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
    /\brequire\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
  ]
  return patterns.flatMap((pattern) => [...source.matchAll(pattern)].map((match) => match[1] as string))
}

/** `<package>/test/<file> -> <specifier>` for each relative import in a package's tests that leaves the package's folder. */
function importsLeavingTheirPackage(): string[] {
  const found: string[] = []
  for (const pkg of readdirSync(PACKAGES)) {
    const root = join(PACKAGES, pkg)
    const tests = join(root, 'test')
    let files: string[]
    try {
      files = readdirSync(tests, { recursive: true, encoding: 'utf8' })
    } catch {
      continue
    }
    for (const file of files.filter((name) => /\.[cm]?[jt]s$/.test(name))) {
      const path = join(tests, file)
      for (const specifier of importedSpecifiers(readFileSync(path, 'utf8'))) {
        if (!specifier.startsWith('.')) continue
        const target = resolve(dirname(path), specifier)
        if (target !== root && !target.startsWith(root + sep)) found.push(`${relative(PACKAGES, path)} -> ${specifier}`)
      }
    }
  }
  return found
}

describe("the packages' tests", () => {
  it('see every form of import', () => {
    const source = [
      "import { a } from '../../proxy/dist/index.js'",
      "import type { B } from './b.js'",
      "export { c } from '@vexil/engine'",
      "import './setup.js'",
      "const d = await import('../../../bench/d.ts')",
      "const e = require('./e.cjs')",
    ].join('\n')
    expect(importedSpecifiers(source).sort()).toEqual([
      '../../../bench/d.ts',
      '../../proxy/dist/index.js',
      './b.js',
      './e.cjs',
      './setup.js',
      '@vexil/engine',
    ])
  })

  it('import other packages by name, never by a relative path out of their own package', () => {
    expect(importsLeavingTheirPackage()).toEqual([])
  })
})
