// The one logger of both servers: levels, the text and JSON line forms, and secrets never written.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createLogger, LOG_LEVELS, type Logger, type LogLevel, redactingLogger, silentLogger } from '@vexil/server-kit'

const SECRET = 'default:development.0123456789abcdef'

function recorded(options: {
  level: LogLevel
  json?: boolean
  label?: (level: LogLevel) => string
  secrets?: string[]
}) {
  const lines: [string, LogLevel][] = []
  const logger = createLogger({ ...options, write: (line, level) => void lines.push([line, level]) })
  return { logger, lines }
}

afterEach(() => vi.restoreAllMocks())

describe('createLogger', () => {
  it.each(LOG_LEVELS)('at level %s writes that level and the ones above it only', (level) => {
    const { logger, lines } = recorded({ level })
    for (const each of LOG_LEVELS) logger[each](each)
    expect(lines.map(([, written]) => written)).toEqual(LOG_LEVELS.slice(LOG_LEVELS.indexOf(level)))
  })

  it('writes text lines as the old proxy did, `LEVEL: message args`, objects as JSON and errors by their stack', () => {
    const { logger, lines } = recorded({ level: 'debug' })
    const error = new Error('boom')
    logger.warn('careful', { a: 1 }, 2)
    logger.error(error)
    expect(lines.map(([line]) => line)).toEqual(['WARN: careful {"a":1} 2', `ERROR: ${error.stack}`])
  })

  it('starts a text line with the label it is given', () => {
    const { logger, lines } = recorded({ level: 'info', label: () => '[vexil-service] ' })
    logger.info('database migrated', 'to 12')
    expect(lines).toEqual([['[vexil-service] database migrated to 12', 'info']])
  })

  it('writes JSON lines with the level, the time, the message and the arguments; errors keep message, stack and cause', () => {
    const { logger, lines } = recorded({ level: 'info', json: true })
    logger.error('failed', new Error('outer', { cause: new Error('inner') }))
    const line = JSON.parse(lines[0]?.[0] as string)
    expect(line).toMatchObject({
      level: 'error',
      message: 'failed',
      args: [{ name: 'Error', message: 'outer', cause: { message: 'inner' } }],
    })
    expect(line.args[0].stack).toContain('outer')
    expect(new Date(line.time).toISOString()).toBe(line.time)
  })

  it('falls back to text arguments when a value cannot be written as JSON', () => {
    const { logger, lines } = recorded({ level: 'info', json: true })
    const loop: Record<string, unknown> = {}
    loop.self = loop
    logger.info('loop', loop)
    expect(JSON.parse(lines[0]?.[0] as string)).toMatchObject({ message: 'loop', args: ['[object Object]'] })
  })

  it.each([false, true])('never writes a secret, in messages, arguments or errors (json: %s)', (json) => {
    const { logger, lines } = recorded({ level: 'debug', json, secrets: [SECRET, 'abc'] })
    logger.info(`Authorization: ${SECRET}`, { token: SECRET }, new Error(`refused ${SECRET}`))
    expect(lines[0]?.[0]).not.toContain(SECRET)
    expect(lines[0]?.[0]).toContain('***')
    // Values under four characters would blank out ordinary words: they are not taken as secrets.
    logger.info('abc stays')
    expect(lines[1]?.[0]).toContain('abc stays')
  })

  it('writes debug and info to stdout, warn and above to stderr, by default', () => {
    const stdout = vi.spyOn(process.stdout, 'write').mockImplementation(() => true)
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true)
    const logger = createLogger({ level: 'debug' })
    logger.info('to stdout')
    logger.warn('to stderr')
    expect(stdout.mock.calls).toEqual([['INFO: to stdout\n']])
    expect(stderr.mock.calls).toEqual([['WARN: to stderr\n']])
  })
})

describe('redactingLogger', () => {
  it("replaces the secrets in the string arguments a caller's logger receives", () => {
    const seen: unknown[][] = []
    const record = (...args: unknown[]) => void seen.push(args)
    const own: Logger = { debug: record, info: record, warn: record, error: record, fatal: record }
    redactingLogger(own, [SECRET]).fatal(`token ${SECRET}`, SECRET, 42)
    expect(seen).toEqual([['token ***', '***', 42]])
  })

  it('returns the logger itself when there is no usable secret', () => {
    expect(redactingLogger(silentLogger, ['abc', ''])).toBe(silentLogger)
  })
})
