// A vitest reporter that ends a run with one line saying how many tests were skipped, which
// optional tools were missing, and the commands that install them. Nothing when nothing skipped.
import type { Reporter, TestModule } from 'vitest/node'
import { installCommands, missingTools } from './optional-tools.ts'

export function skipSummary(
  skipped: number,
  total: number,
  missing: readonly { name: string }[],
  commands: readonly string[],
  isRoot: boolean,
): string | undefined {
  if (skipped === 0) return undefined
  const reasons = [
    ...(missing.length > 0
      ? [`missing ${missing.map((tool) => tool.name).join(', ')} (install: ${commands.join(' && ')})`]
      : []),
    ...(isRoot ? [] : ['not root (tests of files owned by other users run as root only)']),
  ]
  const why = reasons.length > 0 ? reasons.join('; ') : 'see the skipped tests above'
  return `Skipped ${skipped} of ${total} tests: ${why}. Under CI=true nothing skips: a missing tool fails.`
}

export default class SkipSummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let skipped = 0
    let total = 0
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        total++
        if (test.result().state === 'skipped') skipped++
      }
    }
    const missing = missingTools()
    const line = skipSummary(skipped, total, missing, installCommands(missing), process.getuid?.() === 0)
    if (line) console.log(`\n${line}`)
  }
}
