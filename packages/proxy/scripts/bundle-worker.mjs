// Bundles the Worker entry (dist/runtime/cloudflare-worker/entry.js, from
// src/runtime/cloudflare-worker/entry.ts) into one ES module, dist/worker.js, for Cloudflare
// Workers (with the nodejs_compat flag, the default since 2026-08-04, for node:crypto, node:zlib
// and the Buffer the app uses). Dependencies that only the Node server needs stay out: ioredis
// (STORAGE_PROVIDER=redis; a Worker uses KV), swagger-ui-dist (the /docs page's files) and undici
// (the Node transport to the upstream; a Worker uses fetch) are replaced by modules that say so
// when used.
// Run by `npm run build`; prints the size.
import { gzipSync } from 'node:zlib'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

const root = fileURLToPath(new URL('..', import.meta.url))
const NODE_ONLY = {
  ioredis: 'STORAGE_PROVIDER=redis is not available in a Worker: bind a Workers KV namespace as VEXIL_KV instead',
  'swagger-ui-dist': 'The /docs page is not served by the Worker (ENABLE_OAS: the OpenAPI document is)',
  undici:
    "The Node transport is not used in a Worker: its upstream calls go through the runtime's fetch (no HTTPS_PROXY or client certificates)",
}

/**
 * `fromSource`: bundle src/runtime/cloudflare-worker/entry.ts and the workspace packages' sources
 * (the tests, so they always run the code as it stands) instead of the built dist.
 */
export async function bundleWorker({ outfile = `${root}dist/worker.js`, fromSource = false } = {}) {
  const result = await build({
    entryPoints: [
      fromSource ? `${root}src/runtime/cloudflare-worker/entry.ts` : `${root}dist/runtime/cloudflare-worker/entry.js`,
    ],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    conditions: [...(fromSource ? ['@vexil/source'] : []), 'workerd', 'worker', 'browser', 'import'],
    target: 'es2022',
    minify: true,
    sourcemap: false,
    legalComments: 'none',
    // The runtime's own modules (nodejs_compat); CommonJS dependencies reach them through require.
    external: ['node:*'],
    banner: {
      js: "import { createRequire as __vexilCreateRequire } from 'node:module';const require = __vexilCreateRequire('/');",
    },
    metafile: true,
    logLevel: 'warning',
    plugins: [
      {
        name: 'node-only',
        setup(b) {
          const filter = new RegExp(`^(${Object.keys(NODE_ONLY).join('|')})(/.*)?$`)
          b.onResolve({ filter }, (args) => ({ path: args.path, namespace: 'node-only' }))
          b.onLoad({ filter: /.*/, namespace: 'node-only' }, (args) => {
            const message = NODE_ONLY[args.path.split('/')[0]]
            return {
              contents: `const fail = () => { throw new Error(${JSON.stringify(message)}) }; export default new Proxy(function () {}, { get: fail, apply: fail, construct: fail }); export const absolutePath = fail;`,
              loader: 'js',
            }
          })
        },
      },
      {
        // Bare Node built-ins required by CommonJS dependencies: the runtime's node: modules.
        name: 'node-builtins',
        setup(b) {
          const builtins = [
            'assert',
            'buffer',
            'crypto',
            'events',
            'fs',
            'http',
            'https',
            'net',
            'os',
            'path',
            'process',
            'stream',
            'string_decoder',
            'tls',
            'url',
            'util',
            'zlib',
            'cluster',
            'v8',
            'perf_hooks',
            'worker_threads',
            'async_hooks',
            'dns',
          ]
          b.onResolve({ filter: new RegExp(`^(${builtins.join('|')})(/.*)?$`) }, (args) => ({
            path: `node:${args.path}`,
            external: true,
          }))
        },
      },
    ],
  })
  const bytes = readFileSync(outfile)
  return { outfile, bytes: bytes.length, gzipBytes: gzipSync(bytes).length, metafile: result.metafile }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { outfile, bytes, gzipBytes } = await bundleWorker()
  console.log(
    `Worker bundle ${outfile.slice(root.length)}: ${(bytes / 1024).toFixed(0)} KiB, ${(gzipBytes / 1024).toFixed(0)} KiB gzip`,
  )
}
