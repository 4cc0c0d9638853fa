import { defineConfig } from 'vitest/config'

// Tests run against the TypeScript sources of the workspace packages (the `@vexil/source`
// export condition), so `npm test` never depends on a stale build.
export default defineConfig({
  resolve: { conditions: ['@vexil/source'] },
  ssr: { resolve: { conditions: ['@vexil/source'] } },
  test: {
    include: ['packages/*/test/**/*.test.ts', 'bench/**/*.test.ts', 'test-fixtures/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default', './test-fixtures/src/skip-summary-reporter.ts'],
  },
})
