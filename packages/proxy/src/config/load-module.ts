import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { ConfigError } from './values.js'

/**
 * Imports a JavaScript file (ESM or CommonJS) that exports an array: `export default [...]`,
 * `module.exports = [...]`, or a named export holding one. Relative paths are resolved from the
 * working directory (the old proxy resolved them from its own `dist/`, a Docker pitfall, #29).
 */
export async function loadModuleArray(variable: string, path: string): Promise<unknown[]> {
  const file = resolve(process.cwd(), path)
  if (!existsSync(file)) throw new ConfigError(variable, `points at a file that does not exist: ${file}`)
  let module: Record<string, unknown>
  try {
    module = (await import(pathToFileURL(file).href)) as Record<string, unknown>
  } catch (error) {
    throw new ConfigError(
      variable,
      `could not be loaded from ${file}: ${error instanceof Error ? error.message : String(error)}`,
    )
  }
  const candidates = [module.default, ...Object.values(module)]
  const found = candidates.find(Array.isArray)
  if (!found)
    throw new ConfigError(variable, `must export an array (export default [...] or module.exports = [...]): ${file}`)
  return found
}
