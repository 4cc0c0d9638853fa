// Offline mode's file feed, step by step on due timers: the file read again each interval, a
// changed file offered, an unchanged one not, and a broken or missing file logged once per change
// of the file while the last good flags stay.
import { rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createDueTimers } from '@vexil/sync'
import { tempDir } from '@vexil/test-fixtures/temp-dir.ts'
import { createLogger } from '../src/logger.js'
import { createOfflineFeed } from '../src/scope/offline-feed.js'

const folder = tempDir('offline-feed')
afterAll(() => folder.remove())

function feedOn(text: string) {
  const path = join(folder.path, `${Math.random().toString(36).slice(2)}.json`)
  writeFileSync(path, text)
  let now = 0
  const timers = createDueTimers(() => now)
  const offered: unknown[] = []
  const lines: string[] = []
  const logger = createLogger({ level: 'info', write: (line) => lines.push(line) })
  const feed = createOfflineFeed({
    path,
    flags: { offer: (candidate) => (offered.push(candidate.payload), undefined) },
    logger,
    intervalMs: 1000,
    timers,
    text,
  })
  feed.start()
  /** Runs the next reload. */
  const tick = async () => {
    now += 1000
    await timers.runDue()
  }
  return { path, offered, lines, tick, feed, timers }
}

describe('the offline file feed', () => {
  it('offers a changed file once, and nothing while it stays the same', async () => {
    const { path, offered, tick } = feedOn('{"a": {"enabled": true}}')
    await tick()
    expect(offered).toEqual([])
    writeFileSync(path, '{"b": {"enabled": true}}')
    await tick()
    await tick()
    expect(offered).toHaveLength(1)
    expect((offered[0] as { features: Array<{ name: string }> }).features.map((f) => f.name)).toEqual(['b'])
  })

  it('logs a broken file once per change of it, keeps offering nothing, and says when it reads again', async () => {
    const { path, offered, lines, tick } = feedOn('{"a": {"enabled": true}}')
    writeFileSync(path, '{"a": ')
    for (let i = 0; i < 5; i++) await tick()
    expect(lines.filter((line) => line.includes(path))).toEqual([
      expect.stringMatching(
        /^ERROR: The offline file .* is not JSON: .*; the flags read from it last are still served$/,
      ),
    ])
    writeFileSync(path, '{"a": {"enabled": "yes"}}')
    await tick()
    await tick()
    rmSync(path)
    await tick()
    await tick()
    expect(lines.filter((line) => line.startsWith('ERROR'))).toHaveLength(3)
    expect(lines.at(-1)).toMatch(/could not be read \(ENOENT\)/)
    expect(offered).toEqual([])
    writeFileSync(path, '{"c": {"enabled": true}}')
    await tick()
    expect(offered).toHaveLength(1)
    expect(lines.at(-1)).toMatch(/^WARN: The offline file .* reads as flags again: 1 flags served$/)
  })

  it('reads nothing again with an interval of 0, and nothing after stop', async () => {
    const { timers, feed } = feedOn('{}')
    expect(timers.pending).toBe(1)
    feed.stop()
    expect(timers.pending).toBe(0)
    const never = createOfflineFeed({
      path: '/nowhere',
      flags: { offer: () => undefined },
      logger: createLogger({ level: 'error' }),
      intervalMs: 0,
      timers,
      text: '{}',
    })
    never.start()
    expect(timers.pending).toBe(0)
  })
})
