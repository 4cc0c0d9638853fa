// Every benchmark measures the built packages, as users run them: the servers in processes of
// their own (servers/*.mjs), and the engine, the OpenFeature provider, the service and the proxy
// in the benchmark's own process, which runs without the `@vexil/source` condition. Through
// tsx's transform of the sources (esbuild's keepNames wraps every closure the code makes in a
// `__name` call that defines its name), compiling and evaluating run measurably slower than in
// the build users get, so the figures would not be the users'.
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const packages = fileURLToPath(new URL('../packages/', import.meta.url))

/** The packages the benchmarks load, in this process or in their servers. */
const MEASURED_PACKAGES = ['engine', 'sync', 'openfeature', 'server-kit', 'proxy', 'service']

/** The newest modification time of the files under `dir` (0 when it does not exist). */
function newestMtime(dir: string): number {
  if (!existsSync(dir)) return 0
  let newest = 0
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs)
  }
  return newest
}

/** Refuses to measure a stale build: `npm run build` first (CI builds on `npm ci`). */
export function assertBuilt(): void {
  for (const name of MEASURED_PACKAGES) {
    const root = join(packages, name)
    if (newestMtime(join(root, 'dist')) < newestMtime(join(root, 'src'))) {
      throw new Error(
        `packages/${name}/dist is missing or older than its sources: run \`npm run build\` before \`npm run bench\` (the benchmarks measure the built packages)`,
      )
    }
  }
}
