// @vexil/cli: the `vexil` command (the platform, the proxy, the service).

// Commands
export { runVexilCli } from './main.js'
export { runPlatform } from './platform.js'
