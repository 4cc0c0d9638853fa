// The Vexil proxy as `vexil proxy` runs it, with WORKERS=<n> (1: one process, no cluster): the
// built CLI in a child process, against an in-process upstream serving the benchmark payload.
// Ready (a message to the parent) once /internal-backstage/ready says every worker has flags.
import { spawn } from 'node:child_process'
import { createServer } from 'node:http'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
const [port, payloadFile, workers] = process.argv.slice(2)
const cli = fileURLToPath(new URL('../../packages/proxy/dist/cli.js', import.meta.url))
const payload = readFileSync(payloadFile, 'utf8')
const upstream = createServer((req, res) => {
  if (req.url?.includes('/client/features')) {
    res.writeHead(200, { 'content-type': 'application/json', etag: '"bench"' })
    res.end(payload)
    return
  }
  res.writeHead(202)
  res.end()
})
await new Promise((resolve) => upstream.listen(0, '127.0.0.1', resolve))
const proxy = spawn(process.execPath, [cli], {
  env: {
    PATH: process.env.PATH ?? '',
    WORKERS: workers,
    SERVICE_URL: `http://127.0.0.1:${upstream.address().port}/api`,
    SERVICE_API_TOKEN: 'bench',
    SERVICE_PROXY_CLIENT_KEYS: 'bench-key',
    PORT: port,
    HOST: '127.0.0.1',
    SERVICE_FETCH_INTERVAL: '60000',
    SERVICE_METRICS_INTERVAL: '0',
    STORAGE_PROVIDER: 'memory',
    RESPONSE_CACHE_SIZE: '10000',
    // The upstream above serves no stream: the proxy polls (it would try the stream, warn and
    // fall back to polling, with a warning each time).
    STREAMING: 'false',
  },
  stdio: ['ignore', 'ignore', 'inherit'],
})
const exited = new Promise((resolve) => proxy.once('exit', resolve))
for (;;) {
  const status = await fetch(`http://127.0.0.1:${port}/internal-backstage/ready`).then(
    (res) => res.status,
    () => 0,
  )
  if (status === 200) break
  if (proxy.exitCode !== null) process.exit(1)
  await new Promise((resolve) => setTimeout(resolve, 50))
}
process.send?.('ready')
process.on('SIGINT', async () => {
  proxy.kill('SIGTERM')
  await exited
  process.exit(0)
})
