// The default instance id (SERVICE_INSTANCE_ID unset) on every runtime: `<user>-<host>` as the old
// proxy's SDK named it, and a generated one where the user cannot be told, never the same
// placeholder for every instance (Bun answers "unknown" without $USER).
import { execFileSync } from 'node:child_process'
import { rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it, onTestFinished } from 'vitest'
import { runtimeAvailable, runtimeBinary } from '@vexil/test-fixtures/runtimes.ts'
import { defaultInstanceId } from '../src/config/parse.js'

const packageDir = fileURLToPath(new URL('..', import.meta.url))
const withoutUser = Object.fromEntries(
  Object.entries(process.env).filter(([name]) => name !== 'USER' && name !== 'LOGNAME'),
)

describe('default instance id', () => {
  it('is <user>-<host> on Node', () => {
    expect(defaultInstanceId()).toMatch(/^[^-]+.*-.+$/)
    expect(defaultInstanceId()).not.toMatch(/^unknown-/)
  })

  it.runIf(runtimeAvailable('bun'))('on Bun: the user from $USER, else generated (never "unknown-<host>")', () => {
    const run = (env: NodeJS.ProcessEnv) =>
      execFileSync(
        runtimeBinary('bun')!,
        ['-e', "import { defaultInstanceId } from './src/config/parse.ts'; console.log(defaultInstanceId())"],
        { cwd: packageDir, env, encoding: 'utf8' },
      ).trim()
    expect(run({ ...withoutUser, USER: 'alice' })).toMatch(/^alice-/)
    const first = run(withoutUser)
    expect(first).toMatch(/^generated-[0-9a-f-]{36}-\d+-/)
    expect(run(withoutUser)).not.toBe(first)
  })

  it.runIf(runtimeAvailable('deno'))('on Deno without --allow-sys: the names fall back instead of throwing', () => {
    // `deno eval` grants every permission: a script file runs with only those given. It sits in
    // the package, so Deno resolves the package's dependencies from there.
    const script = join(packageDir, `.deno-names-${process.pid}.ts`)
    writeFileSync(
      script,
      "import { defaultInstanceId, engineHostname } from './src/config/parse.ts'; console.log(defaultInstanceId(), engineHostname())",
    )
    onTestFinished(() => rmSync(script, { force: true }))
    const run = (env: NodeJS.ProcessEnv) =>
      execFileSync(runtimeBinary('deno')!, ['run', '--sloppy-imports', '--allow-env', '--allow-read', script], {
        cwd: packageDir,
        env,
        encoding: 'utf8',
      }).trim()
    expect(run({ ...withoutUser, USER: 'alice', HOSTNAME: 'box' })).toBe('alice-box box')
    const { HOSTNAME: _, ...withoutHost } = withoutUser
    const [generated, host] = run(withoutHost).split(' ')
    expect(generated).toMatch(/^generated-[0-9a-f-]{36}-\d+-unknown-host$/)
    expect(host).toBe('unknown-host')
  })
})
