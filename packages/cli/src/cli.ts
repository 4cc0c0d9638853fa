#!/usr/bin/env node
// The `vexil` bin:
//   vexil start    the platform: the proxy against SERVICE_URL when it is set, otherwise the
//                  service on its embedded database plus the proxy syncing from it
//   vexil proxy    the evaluation proxy alone (configuration by environment variables)
//   vexil service  the flag service alone
import { runVexilCli } from './main.js'

runVexilCli(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
    process.exit(1)
  },
)
