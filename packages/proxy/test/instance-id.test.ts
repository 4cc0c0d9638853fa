// The default instance id (SERVICE_INSTANCE_ID unset) on every runtime: `<user>-<host>` as the old
// proxy's SDK named it, and a generated one where the user cannot be told, never the same
// placeholder for every instance (Bun answers "unknown" without $USER).
import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { runtimeAvailable, runtimeBinary } from '@vexil/test-fixtures/runtimes.ts'
import { defaultInstanceId } from '../src/config/parse.js'

const packageDir = fileURLToPath(new URL('..', import.meta.url))
const withoutUser = Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== 'USER' && name !== 'LOGNAME'))

describe('default instance id', () => {
  it('is <user>-<host> on Node', () => {
    expect(defaultInstanceId()).toMatch(/^[^-]+.*-.+$/)
    expect(defaultInstanceId()).not.toMatch(/^unknown-/)
  })

  it.runIf(runtimeAvailable('bun'))('on Bun: the user from $USER, else generated (never "unknown-<host>")', () => {
    const run = (env: NodeJS.ProcessEnv) =>
      execFileSync(runtimeBinary('bun')!, ['-e', "import { defaultInstanceId } from './src/config/parse.ts'; console.log(defaultInstanceId())"], { cwd: packageDir, env, encoding: 'utf8' }).trim()
    expect(run({ ...withoutUser, USER: 'alice' })).toMatch(/^alice-/)
    const first = run(withoutUser)
    expect(first).toMatch(/^generated-[0-9a-f-]{36}-\d+-/)
    expect(run(withoutUser)).not.toBe(first)
  })
})
