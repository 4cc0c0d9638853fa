// A fake upstream that also takes Unleash's bulk metrics: `POST /api/client/metrics/bulk` is
// recorded, everything else is forwarded to the fake upstream (which does not know bulk).
import { createServer, request, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { FakeUpstream } from '@vexil/test-fixtures/fake-upstream.ts'

export type BulkRow = {
  featureName: string
  appName: string
  instanceId: string
  environment: string
  yes: number
  no: number
}
export type Bulk = {
  applications: { appName: string; instanceId: string; environment: string; connectVia?: unknown[] }[]
  metrics: BulkRow[]
}

/** `defer` stops the server after the test (useServers().defer, or an afterAll's list). */
export async function withBulk(
  upstream: FakeUpstream,
  defer: (step: () => Promise<void>) => void,
): Promise<{ url: string; bulks: Bulk[] }> {
  const bulks: Bulk[] = []
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      if (req.url === '/api/client/metrics/bulk' && req.method === 'POST') {
        bulks.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Bulk)
        res.writeHead(202).end()
        return
      }
      const forward = request(
        { host: '127.0.0.1', port: upstream.port, path: req.url, method: req.method, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers)
          answer.pipe(res)
        },
      )
      forward.end(Buffer.concat(chunks))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  defer(() => new Promise<void>((resolve) => server.close(() => resolve())))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`, bulks }
}

export const bulkRows = (bulks: Bulk[]) => bulks.flatMap((bulk) => bulk.metrics)
export const bulkYes = (rows: BulkRow[], appName: string, featureName = 'on') =>
  rows.filter((row) => row.appName === appName && row.featureName === featureName).reduce((n, row) => n + row.yes, 0)

/** What unleash-client-node posts to /api/client/register. */
export const serverSdkRegistration = (appName: string, instanceId: string) => ({
  appName,
  instanceId,
  sdkVersion: 'unleash-client-node:6.0.0',
  strategies: ['default'],
  interval: 15000,
  started: new Date().toISOString(),
})
