// The service logs through the logger the proxy uses (@vexil/server-kit's): its own line form,
// `[vexil-service] message args`, and its secrets (the INIT_* tokens' secrets, the database
// password) never written, in its own lines or through a logger a caller gives it.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { parseServiceConfig } from '../src/config.js'
import { createConsoleLogger, type Logger, serviceLogger } from '../src/logger.js'

const ADMIN_SECRET = '5f0c3e9a1b7d24c68e0f9a3b1c5d7e92'
const CLIENT_SECRET = '0b8e4c2a9f1d73e56a4c0e8b2d6f1a37'
const PASSWORD = 'p@ss word'
const config = parseServiceConfig({
  INIT_ADMIN_API_TOKENS: `*:*.${ADMIN_SECRET}`,
  INIT_CLIENT_API_TOKENS: `default:development.${CLIENT_SECRET}`,
  DATABASE_URL: `postgres://vexil:${encodeURIComponent(PASSWORD)}@db.internal:5432/vexil`,
  LOG_LEVEL: 'warn',
})

function captured() {
  const stdout = vi.spyOn(process.stdout, 'write').mockImplementation(() => true)
  const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true)
  return () => [...stdout.mock.calls, ...stderr.mock.calls].map(([line]) => String(line))
}

afterEach(() => vi.restoreAllMocks())

describe("the service's logger", () => {
  it('writes `[vexil-service] message args` from its level up: debug and info to stdout, the rest to stderr', () => {
    const stdout = vi.spyOn(process.stdout, 'write').mockImplementation(() => true)
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true)
    const logger = createConsoleLogger('info')
    logger.debug('hidden')
    logger.info('database migrated to version 12 (pglite)')
    logger.error('GET /api/admin/features failed', 'Error: boom')
    expect(stdout.mock.calls).toEqual([['[vexil-service] database migrated to version 12 (pglite)\n']])
    expect(stderr.mock.calls).toEqual([['[vexil-service] GET /api/admin/features failed Error: boom\n']])
  })

  it('redacts the INIT_* token secrets and the database password from its own lines', () => {
    const lines = captured()
    const logger = serviceLogger(config)
    logger.info('not written: LOG_LEVEL=warn')
    logger.warn(`token *:*.${ADMIN_SECRET} and default:development.${CLIENT_SECRET}`)
    logger.error(
      'could not connect',
      new Error(`password authentication failed: ${PASSWORD} (${encodeURIComponent(PASSWORD)})`),
    )
    expect(lines()).toHaveLength(2)
    const text = lines().join('')
    for (const secret of [ADMIN_SECRET, CLIENT_SECRET, PASSWORD, encodeURIComponent(PASSWORD)])
      expect(text).not.toContain(secret)
    expect(text).toContain('[vexil-service] token *:*.*** and default:development.***')
  })

  it("redacts them from the strings a caller's logger receives", () => {
    const seen: unknown[][] = []
    const record = (...args: unknown[]) => void seen.push(args)
    const given: Logger = { debug: record, info: record, warn: record, error: record, fatal: record }
    serviceLogger(config, given).error(`deleted API token *:*.${ADMIN_SECRET}`, `DATABASE_URL password ${PASSWORD}`)
    expect(seen).toEqual([['deleted API token *:*.***', 'DATABASE_URL password ***']])
  })

  it('is the logger a service without secrets writes with, unchanged', () => {
    const lines = captured()
    serviceLogger(parseServiceConfig({ LOG_LEVEL: 'fatal' })).error('below fatal: not written')
    expect(lines()).toEqual([])
  })
})
