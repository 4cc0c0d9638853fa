// Preloaded (`node --require`) into a server under test: as the process exits, writes to stderr
// one line naming every OpenTelemetry module it loaded (`OPENTELEMETRY-LOADED: ` and a list, maybe
// empty). The SDK's packages are CommonJS under Node, so each one loaded is in require.cache.
const { writeSync } = require('node:fs')

process.on('exit', () => {
  const loaded = new Set()
  for (const path of Object.keys(require.cache)) {
    const match = /node_modules[\\/](@opentelemetry[\\/][^\\/]+)/.exec(path)
    if (match) loaded.add(match[1].replace('\\', '/'))
  }
  writeSync(2, `\nOPENTELEMETRY-LOADED: ${[...loaded].sort().join(' ')}\n`)
})
