// Installs of this repository run no dependency's install script (issue 13): `@scarf/scarf`,
// pulled in by swagger-ui-dist, reports every install to its vendor, and esbuild's only checks a
// binary that its platform package already ships. npm 11 runs only the scripts `allowScripts`
// approves; older npm runs them all, and scarf then reads `scarfSettings` of the root package.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

const root = new URL('../../', import.meta.url)
const manifest = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'))
const lock = JSON.parse(readFileSync(new URL('package-lock.json', root), 'utf8'))

describe('install scripts', () => {
  it('every locked package with an install script is reviewed and denied', () => {
    const withScripts = Object.entries(lock.packages as Record<string, { hasInstallScript?: boolean }>)
      .filter(([path, entry]) => path.startsWith('node_modules/') && entry.hasInstallScript)
      .map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length))
    expect(withScripts.length).toBeGreaterThan(0)
    for (const name of withScripts) expect(manifest.allowScripts?.[name], name).toBe(false)
  })

  it('scarf analytics are off for npm versions that run install scripts', () => {
    expect(manifest.scarfSettings).toEqual({ enabled: false })
  })
})
