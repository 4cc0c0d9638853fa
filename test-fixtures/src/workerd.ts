// workerd (Cloudflare Workers' runtime, the binary from its npm package; runtimes.ts) serving
// one Worker module on 127.0.0.1, configured as `wrangler` would: the module, its environment
// variables and an optional KV namespace. workerd's KV binding talks HTTP to a service, so the
// namespace is a small in-memory store served on 127.0.0.1 (GET/PUT by key), kept across
// restarts of the Worker, as KV is.
import { spawn } from 'node:child_process'
import { copyFileSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { freePort } from './ports.ts'
import { runtimeBinary } from './runtimes.ts'
import { superviseChild, type SupervisedChild } from './supervised-child.ts'
import { tempDir } from './temp-dir.ts'

export interface KvStore {
  /** The binding's service address (`127.0.0.1:<port>`). */
  address: string
  /** Keys and values as the Worker wrote them. */
  readonly entries: Map<string, string>
  /** Answer 500 to every call (KV unavailable) until cleared. */
  failing: boolean
  close(): Promise<void>
}

export async function startKvStore(): Promise<KvStore> {
  const entries = new Map<string, string>()
  const store: KvStore = { address: '', entries, failing: false, close: async () => undefined }
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const key = decodeURIComponent(new URL(req.url ?? '/', 'http://kv').pathname.slice(1))
      if (store.failing) return void res.writeHead(500).end()
      if (req.method === 'PUT') {
        entries.set(key, Buffer.concat(chunks).toString('utf8'))
        return void res.writeHead(200).end()
      }
      if (req.method === 'GET') {
        const value = entries.get(key)
        return void (value === undefined ? res.writeHead(404).end() : res.writeHead(200).end(value))
      }
      res.writeHead(405).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  store.address = `127.0.0.1:${(server.address() as AddressInfo).port}`
  store.close = () => new Promise((resolve) => server.close(() => resolve()))
  return store
}

export interface WorkerdOptions {
  /** The bundled Worker (one ES module). */
  module: string
  /** Environment variables (text bindings). */
  vars: Record<string, string>
  /** A KV namespace bound as `kvBinding` (default VEXIL_KV). */
  kv?: KvStore
  kvBinding?: string
  port?: number
}

export interface RunningWorkerd extends SupervisedChild {
  url: string
  port: number
}

const capnpText = (value: string) => JSON.stringify(value)

export async function startWorkerd(options: WorkerdOptions): Promise<RunningWorkerd> {
  const binary = runtimeBinary('workerd')
  if (!binary) throw new Error('workerd is not installed (see test-fixtures/src/runtimes.ts)')
  const dir = tempDir('workerd')
  copyFileSync(options.module, join(dir.path, 'worker.js'))
  const port = options.port ?? (await freePort())
  const bindings = Object.entries(options.vars).map(
    ([name, value]) => `(name = ${capnpText(name)}, text = ${capnpText(value)})`,
  )
  if (options.kv) bindings.push(`(name = ${capnpText(options.kvBinding ?? 'VEXIL_KV')}, kvNamespace = "kv")`)
  const services = [
    '(name = "main", worker = .worker)',
    '(name = "internet", network = (allow = ["private", "public", "local"]))',
  ]
  if (options.kv) services.push(`(name = "kv", external = (address = ${capnpText(options.kv.address)}, http = ()))`)
  writeFileSync(
    join(dir.path, 'config.capnp'),
    `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [ ${services.join(', ')} ],
  sockets = [ (name = "http", address = "127.0.0.1:${port}", http = (), service = "main") ],
);
const worker :Workerd.Worker = (
  modules = [ (name = "worker.js", esModule = embed "worker.js") ],
  compatibilityDate = "2026-11-01",
  bindings = [ ${bindings.join(', ')} ],
  globalOutbound = "internet",
);
`,
  )
  const child = spawn(binary, ['serve', join(dir.path, 'config.capnp'), '--verbose'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const url = `http://127.0.0.1:${port}`
  const supervised = await superviseChild(child, {
    name: `workerd on port ${port}`,
    stopTimeoutMs: 5_000,
    afterStop: () => dir.remove(),
    ready: async () => {
      const deadline = Date.now() + 20_000
      for (;;) {
        try {
          await fetch(`${url}/__workerd_ready`)
          return
        } catch (error) {
          if (Date.now() > deadline) throw error
          await new Promise((resolve) => setTimeout(resolve, 50))
        }
      }
    },
  })
  return { ...supervised, url, port }
}
