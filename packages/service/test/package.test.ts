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
