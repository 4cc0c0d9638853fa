import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { SDK_VERSION } from '../src/upstream/upstream.js'

// Pins the public surface of src/index.ts (docs/architecture.md, "Packages"): a change to it is a decision, not a side effect.
describe('@vexil/proxy public surface', () => {
  it('exports exactly these names', async () => {
    expect(Object.keys(await import('../src/index.js')).sort()).toEqual([
      'ACCESS_KINDS',
      'ConfigError',
      'PROXY_ENVIRONMENT_VARIABLES',
      'createHttpUpstream',
      'createLogger',
      'createProxyApp',
      'createProxyConfig',
      'runProxyCli',
      'startProxy',
    ])
  })

  it('announces the package version to the upstream and on --version (a constant: the Worker bundle reads no files)', () => {
    const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      version: string
    }
    expect(SDK_VERSION).toBe(version)
  })
})
