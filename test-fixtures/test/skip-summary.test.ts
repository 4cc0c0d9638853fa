import { describe, expect, it } from 'vitest'
import { installCommands, OPTIONAL_TOOLS } from '../src/optional-tools.ts'
import { skipSummary } from '../src/skip-summary-reporter.ts'

const byName = (...names: string[]) => OPTIONAL_TOOLS.filter((tool) => names.includes(tool.name))

describe('the summary at the end of npm test', () => {
  it('says nothing when nothing skipped', () => {
    expect(skipSummary(0, 10, byName('Chromium'), ['x'], false)).toBeUndefined()
  })

  it('names the missing tools and the commands that install them, on one line', () => {
    const missing = byName('Chromium', 'Redis', 'Unleash 8.2', 'Bun, Deno and workerd')
    const line = skipSummary(939, 3379, missing, installCommands(missing), true)
    expect(line).toBe(
      'Skipped 939 of 3379 tests: missing Chromium, Redis, Unleash 8.2, Bun, Deno and workerd ' +
        '(install: sudo apt-get install chromium redis-server && npm run setup:unleash && npm run setup:runtimes). ' +
        'Under CI=true nothing skips: a missing tool fails.',
    )
    expect(line).not.toContain('\n')
  })

  it('says when the only reason is not running as root', () => {
    expect(skipSummary(6, 100, [], [], false)).toContain('not root')
  })

  it('every npm install command is a script of the root package.json', async () => {
    const { default: pkg } = await import('../../package.json', { with: { type: 'json' } })
    for (const tool of OPTIONAL_TOOLS) {
      if (!('npm' in tool.install)) continue
      const script = /^npm run (\S+)$/.exec(tool.install.npm)?.[1]
      expect(script, tool.name).toBeDefined()
      expect(Object.keys(pkg.scripts), tool.name).toContain(script)
    }
  })
})
