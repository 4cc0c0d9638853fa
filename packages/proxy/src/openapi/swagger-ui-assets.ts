// The static Swagger UI files, served from the installed swagger-ui-dist (no CDN: the UI must load
// from our own server). Only names listed from that one folder at startup can be served, so no
// request path can reach a file anywhere else: traversal is impossible by construction, not by
// filtering `..`.
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, extname, join } from 'node:path'
import type { StaticAsset } from '@vexil/server-kit'

export interface SwaggerUiAssets {
  /** swagger-ui-dist's version: the page puts it in asset URLs so they can be cached for good. */
  version: string
  /** The file called `name` in swagger-ui-dist, or `undefined` if it is not a UI file. */
  get(name: string): Promise<StaticAsset | undefined>
}

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.png': 'image/png',
  '.map': 'application/json; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
}

// In the folder but not part of the UI: Node entry points, and the upstream demo page and
// initializer (which would load the petstore document from the internet). We serve our own page.
const NOT_SERVED = new Set(['index.html', 'index.js', 'absolute-path.js', 'swagger-initializer.js'])

function servable(name: string): boolean {
  if (NOT_SERVED.has(name)) return false
  // The only text files worth serving are the licences the bundles point to.
  if (name.endsWith('.txt')) return name.endsWith('.LICENSE.txt')
  return Object.hasOwn(CONTENT_TYPES, extname(name))
}

export function openSwaggerUiAssets(): SwaggerUiAssets {
  // createRequire, not import.meta.resolve: works the same from src (tests) and dist.
  const dir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'))
  const { version } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }
  const types = new Map<string, string>()
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isFile() && servable(entry.name)) types.set(entry.name, CONTENT_TYPES[extname(entry.name)] as string)
  }

  // Read on first request, then kept: the source maps are large and rarely asked for.
  const loaded = new Map<string, Promise<StaticAsset>>()
  async function load(name: string, contentType: string): Promise<StaticAsset> {
    const body = await readFile(join(dir, name))
    const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`
    return { body, contentType, etag }
  }

  return {
    version,
    async get(name) {
      const contentType = types.get(name)
      if (contentType === undefined) return undefined
      let asset = loaded.get(name)
      if (!asset) {
        asset = load(name, contentType)
        loaded.set(name, asset)
        // A failed read is retried by the next request instead of being cached.
        asset.catch(() => loaded.delete(name))
      }
      return asset
    },
  }
}
