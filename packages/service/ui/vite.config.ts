// The admin UI (issue 8): Preact with Oxc's automatic JSX runtime (no Babel), Chart.js, plain
// CSS. Built by the package's `build` script into dist/ui, which routes/ui.ts serves at `/`.
import { fileURLToPath } from 'node:url'
import { defaultClientConditions, defineConfig } from 'vite'

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  // The engine (playground, strategy editor) is bundled from its TypeScript source.
  resolve: { conditions: ['@vexil/source', ...defaultClientConditions] },
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: fileURLToPath(new URL('../dist/ui', import.meta.url)),
    emptyOutDir: true,
    assetsDir: 'assets',
    target: 'es2022',
    // Small enough to load whole; no chunk-size noise for a ~70 kB gzip app.
    chunkSizeWarningLimit: 400,
  },
  logLevel: 'warn',
})
