import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

describe('@vexil/service public surface', () => {
  it('exports exactly these names', async () => {
    expect(Object.keys(await import('../src/index.js')).sort()).toMatchInlineSnapshot(`
      [
        "ConfigError",
        "DEMO_CREDENTIALS_FILE",
        "ERROR_STATUS",
        "MIGRATIONS",
        "ServiceError",
        "appliedVersions",
        "createActionRunner",
        "createConsoleLogger",
        "createInsightsScheduler",
        "createPgliteDatabase",
        "createPostgresDatabase",
        "createServiceApp",
        "isServiceError",
        "migrate",
        "openDatabase",
        "parseServiceConfig",
        "runServiceCli",
        "seedDemo",
        "silentLogger",
        "startService",
        "takeInsightsSnapshot",
      ]
    `)
  })
})

describe('@vexil/service/admin-rules, the rules the admin UI shares with the API', () => {
  it('exports exactly these names, by the package name the UI imports', async () => {
    expect(Object.keys(await import('@vexil/service/admin-rules')).sort()).toEqual([
      'FILTER_OPERATORS',
      'SIGNAL_ENDPOINT_NAME_MAX_LENGTH',
      'SIGNAL_ENDPOINT_NAME_PATTERN',
      'SIGNAL_ENDPOINT_NAME_RULE',
      'URL_SAFE_NAME_MAX_LENGTH',
      'URL_SAFE_NAME_PATTERN',
      'URL_SAFE_NAME_RULE',
      'VARIANT_WEIGHT_TOTAL',
      'flattenPayload',
      'shareVariantWeights',
    ])
  })

  it('is the only way the UI reaches server code: no relative import leaves ui/', () => {
    const uiRoot = fileURLToPath(new URL('../ui/src/', import.meta.url))
    const escaping: string[] = []
    for (const file of readdirSync(uiRoot, { recursive: true, encoding: 'utf8' })) {
      if (!/\.tsx?$/.test(file)) continue
      const full = join(uiRoot, file)
      for (const [, specifier] of readFileSync(full, 'utf8').matchAll(/from '(\.[^']*)'/g)) {
        if (!resolve(dirname(full), specifier as string).startsWith(uiRoot)) escaping.push(`${file}: ${specifier}`)
      }
    }
    expect(escaping).toEqual([])
  })
})
