// The admin web UI (issue 8): the files Vite builds into dist/ui, served at `/`.
//   GET|HEAD /assets/<file>   hashed build output: cached for a year (`immutable`)
//   GET|HEAD /<file>          other files of the build (favicon): revalidated (`no-cache`)
//   GET|HEAD /, /<page>...    index.html (`no-cache`): the UI routes with the History API
// `/api/*` and `/health` (in any letter case) are never ours, and neither are other methods: the
// handler returns undefined and the app answers as before (a JSON 404). These paths need no token
// and hold no data: the page signs in through the admin API itself.
import { createHash } from 'node:crypto'
import { readFile, stat } from 'node:fs/promises'
import { extname, join, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { sendStaticAsset, type StaticAsset } from '@vexil/server-kit'
import { createError, eventHandler, setResponseHeaders } from 'h3'

/** Where `npm run build` puts the UI: `dist/ui` of this package, from `src/routes` or `dist/routes`. */
export const DEFAULT_UI_DIR = fileURLToPath(new URL('../../dist/ui', import.meta.url))

const IMMUTABLE = 'public, max-age=31536000, immutable'

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
}

/**
 * The page may load and call only this origin; Chart.js and Preact set inline styles, so styles
 * allow them, scripts never.
 */
const PAGE_HEADERS = {
  'content-security-policy': [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "form-action 'self'",
  ].join('; '),
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
}

/** Served instead of index.html when the UI was not built: a page that says so, not a 404. */
const NOT_BUILT_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Vexil: admin UI not built</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 3rem auto; padding: 0 1rem; line-height: 1.5">
<h1>The admin UI was not built</h1>
<p>This Vexil service is running and its API answers under <code>/api/admin</code>, but the web UI's
files are missing from <code>packages/service/dist/ui</code>.</p>
<p>Build them with <code>npm run build</code> (or <code>npm ci</code>) at the repository root, then reload this page.</p>
</body></html>
`

interface LoadedFile extends StaticAsset {
  mtimeMs: number
  size: number
}

interface UiHandlerOptions {
  /** The built UI folder (index.html and assets/); default `DEFAULT_UI_DIR`. */
  root?: string
}

/** The h3 handler serving the UI; mount it after every API route. */
export function createUiHandler(options: UiHandlerOptions = {}) {
  const root = resolve(options.root ?? DEFAULT_UI_DIR)
  // Contents by path, reread when the file changes (a rebuild while the service runs).
  const cache = new Map<string, LoadedFile>()

  const load = async (file: string): Promise<LoadedFile | undefined> => {
    const info = await stat(file).catch(() => undefined)
    if (!info?.isFile()) return undefined
    const cached = cache.get(file)
    if (cached && cached.mtimeMs === info.mtimeMs && cached.size === info.size) return cached
    const body = await readFile(file)
    const loaded = {
      body,
      contentType: CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream',
      etag: `"${createHash('sha1').update(body).digest('base64url')}"`,
      mtimeMs: info.mtimeMs,
      size: info.size,
    }
    cache.set(file, loaded)
    return loaded
  }

  return eventHandler(async (event) => {
    if (event.method !== 'GET' && event.method !== 'HEAD') return undefined
    const pathname = event.path.split('?')[0] as string
    if (isApiPath(pathname)) return undefined
    const segments = fileSegments(pathname)
    if (!segments) throw notFound()

    if (segments.length > 0) {
      const file = join(root, ...segments)
      // fileSegments refuses `..`, so this holds; checked again in case a rule above changes.
      if (!file.startsWith(root + sep)) throw notFound()
      const loaded = await load(file)
      if (loaded) {
        const immutable = segments[0] === 'assets'
        return sendStaticAsset(event, loaded, immutable ? IMMUTABLE : 'no-cache')
      }
      // A missing file is a 404; only extension-less paths outside assets/ are pages of the UI.
      if (segments[0] === 'assets' || /\.[A-Za-z0-9]+$/.test(segments.at(-1) as string)) throw notFound()
    }

    const index = await load(join(root, 'index.html'))
    if (!index) {
      setResponseHeaders(event, {
        ...PAGE_HEADERS,
        'content-type': CONTENT_TYPES['.html'] as string,
        'cache-control': 'no-cache',
      })
      return NOT_BUILT_PAGE
    }
    setResponseHeaders(event, PAGE_HEADERS)
    return sendStaticAsset(event, index, 'no-cache')
  })
}

// --- Internal helpers ---

function isApiPath(path: string): boolean {
  const pathname = path.toLowerCase()
  return (
    pathname === '/api' ||
    pathname.startsWith('/api/') ||
    pathname.startsWith('/api;') ||
    pathname === '/health' ||
    pathname.startsWith('/health/')
  )
}

/**
 * The decoded path segments, or undefined for a path that can name no file of the build:
 * bad or double percent-encoding, `.`/`..`, dot-files, backslashes or NUL (traversal attempts in any spelling).
 */
function fileSegments(pathname: string): string[] | undefined {
  const segments: string[] = []
  for (const raw of pathname.split('/')) {
    if (raw === '') continue
    let segment: string
    try {
      segment = decodeURIComponent(raw)
    } catch {
      return undefined
    }
    // A `%` left after decoding was encoded twice: no file of the build is named so.
    if (segment.startsWith('.') || /[\\/\0%]/.test(segment)) return undefined
    segments.push(segment)
  }
  return segments
}

/** The service's JSON 404 (`sendServiceError` words it "There is no GET /path."). */
function notFound() {
  return createError({ statusCode: 404 })
}
