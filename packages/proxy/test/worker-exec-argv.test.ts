// Workers start with V8's young generation capped unless the operator sized it (issue 17).
import { describe, expect, it } from 'vitest'
import { SEMI_SPACE_FLAG, workerExecArgv } from '../src/cluster/worker-exec-argv.js'

describe('workerExecArgv', () => {
  it('adds the cap to the primary\'s flags', () => {
    expect(workerExecArgv([], undefined)).toEqual([SEMI_SPACE_FLAG])
    expect(workerExecArgv(['--enable-source-maps'], '')).toEqual(['--enable-source-maps', SEMI_SPACE_FLAG])
  })

  it.each([
    [['--max-semi-space-size=8'], undefined],
    [['--max_semi_space_size=8'], undefined],
    [['--min-semi-space-size=4'], undefined],
    [['--max-semi-space-size', '8'], undefined],
    [[], '--max-old-space-size=512 --max-semi-space-size=16'],
    [[], '--max_semi_space_size=1'],
  ])('keeps the operator\'s own size: execArgv %j, NODE_OPTIONS %j', (execArgv, nodeOptions) => {
    expect(workerExecArgv(execArgv, nodeOptions)).toEqual(execArgv)
  })

  it('is not fooled by other flags that mention a size', () => {
    expect(workerExecArgv(['--max-old-space-size=512'], '--semi-space-growth-factor=2')).toEqual(['--max-old-space-size=512', SEMI_SPACE_FLAG])
  })
})
