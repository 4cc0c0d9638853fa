// Workers start with V8's memory flags, each unless the operator chose that setting (issue 17).
import { describe, expect, it } from 'vitest'
import { HEAP_GROWING_FLAG, SEMI_SPACE_FLAG, workerExecArgv } from '../src/runtime/cluster/worker-exec-argv.js'

describe('workerExecArgv', () => {
  it("adds both flags to the primary's", () => {
    expect(workerExecArgv([], undefined)).toEqual([SEMI_SPACE_FLAG, HEAP_GROWING_FLAG])
    expect(workerExecArgv(['--enable-source-maps'], '')).toEqual([
      '--enable-source-maps',
      SEMI_SPACE_FLAG,
      HEAP_GROWING_FLAG,
    ])
  })

  it.each([
    [['--max-semi-space-size=8'], undefined],
    [['--max_semi_space_size=8'], undefined],
    [['--min-semi-space-size=4'], undefined],
    [['--max-semi-space-size', '8'], undefined],
    [[], '--max-old-space-size=512 --max-semi-space-size=16'],
    [[], '--max_semi_space_size=1'],
  ])("keeps the operator's own young-generation size: execArgv %j, NODE_OPTIONS %j", (execArgv, nodeOptions) => {
    expect(workerExecArgv(execArgv, nodeOptions)).toEqual([...execArgv, HEAP_GROWING_FLAG])
  })

  it.each([[['--heap-growing-percent=0']], [['--heap_growing_percent=50']], [['--heap-growing-percent', '20']]])(
    "keeps the operator's own growing factor: execArgv %j",
    (execArgv) => {
      expect(workerExecArgv(execArgv, undefined)).toEqual([...execArgv, SEMI_SPACE_FLAG])
    },
  )

  it('adds neither when the operator set both', () => {
    expect(workerExecArgv(['--max-semi-space-size=4', '--heap-growing-percent=0'], undefined)).toEqual([
      '--max-semi-space-size=4',
      '--heap-growing-percent=0',
    ])
  })

  it('is not fooled by other flags that mention a size or growth', () => {
    expect(workerExecArgv(['--max-old-space-size=512'], '--semi-space-growth-factor=2')).toEqual([
      '--max-old-space-size=512',
      SEMI_SPACE_FLAG,
      HEAP_GROWING_FLAG,
    ])
  })

  it('each flag is one Node accepts on the command line', async () => {
    const { execFileSync } = await import('node:child_process')
    expect(
      execFileSync(process.execPath, [SEMI_SPACE_FLAG, HEAP_GROWING_FLAG, '-e', 'process.stdout.write("ok")'], {
        encoding: 'utf8',
      }),
    ).toBe('ok')
  })
})
