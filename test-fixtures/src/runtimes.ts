// Where the other JavaScript runtimes come from: Bun, Deno and workerd (Cloudflare Workers'
// runtime), each the binary inside its npm platform package, pinned in .ci/runtimes (outside the
// workspace install; `.ci/run` installs it). Under CI a missing binary is a failure, never a skip.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { isCI } from './ci.ts'

/** The folder holding the pinned install (its own package.json and package-lock.json). */
export const RUNTIMES_PREFIX = fileURLToPath(new URL('../../.ci/runtimes/', import.meta.url))
export const RUNTIMES_INSTALL = 'npm run setup:runtimes'

export type RuntimeName = 'bun' | 'deno' | 'workerd'

const BINARIES: Record<RuntimeName, string[]> = {
  bun: ['@oven', 'bun-linux-x64', 'bin', 'bun'],
  deno: ['@deno', 'linux-x64-glibc', 'deno'],
  workerd: ['@cloudflare', 'workerd-linux-64', 'bin', 'workerd'],
}

/** The runtime's binary, or undefined when it is not installed (or this is not Linux x64). */
export function runtimeBinary(name: RuntimeName): string | undefined {
  if (process.platform !== 'linux' || process.arch !== 'x64') return undefined
  const path = join(RUNTIMES_PREFIX, 'node_modules', ...BINARIES[name])
  return existsSync(path) ? path : undefined
}

/** Why a suite that needs `name` cannot run here, or undefined when it can. */
export function runtimeMissing(name: RuntimeName): string | undefined {
  if (runtimeBinary(name)) return undefined
  if (process.platform !== 'linux' || process.arch !== 'x64')
    return `${name} is installed for Linux x64 only (this is ${process.platform} ${process.arch})`
  return `${name} is not installed: run \`${RUNTIMES_INSTALL}\``
}

/**
 * Deno's permissions for the proxy, the service and the platform (README, "Runtimes"). `uid`:
 * the proxy's file backup is read only when it belongs to the process's user
 * (process.getuid()); `userInfo` with `uid` and `gid`: Deno's os.userInfo() needs all three, for
 * the default instance id `<user>-<host>`; `hostname`: that id and the applicationHostname strategy.
 */
export const DENO_PERMISSIONS = [
  '--allow-net',
  '--allow-env',
  '--allow-read',
  '--allow-write',
  '--allow-sys=hostname,userInfo,uid,gid',
]

/**
 * Whether a suite that needs `name` can run here. Under CI a missing binary throws (the test file
 * fails) instead of skipping; elsewhere the caller skips and says why.
 */
export function runtimeAvailable(name: RuntimeName): boolean {
  const missing = runtimeMissing(name)
  if (missing && isCI()) throw new Error(`${name} required under CI: ${missing}`)
  return missing === undefined
}
