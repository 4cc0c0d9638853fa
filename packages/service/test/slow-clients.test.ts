// Slow clients (issue 13): a connection that sends its headers, or its body, slowly is cut off
// at the server's timeouts instead of being held 70-90 s. Shortened timeouts keep the test fast;
// the defaults are HTTP_TIMEOUTS (10 s for headers, 30 s for a whole request).
import { connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { silentLogger } from '../src/logger.js'
import { type RunningService, startService } from '../src/server.js'
import { tempDir } from '@vexil/test-fixtures/temp-dir.ts'

const data = tempDir('slow-clients')
let service: RunningService

beforeAll(async () => {
  service = await startService({
    port: 0,
    host: '127.0.0.1',
    dataDir: data.path,
    logger: silentLogger,
    env: {},
    timeouts: { headersMs: 500, requestMs: 1_000 },
  })
})
afterAll(async () => {
  await service?.close()
  data.remove()
})

/** Opens a socket, writes `text`, then nothing more; resolves with the ms until the server closes it. */
function heldFor(text: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = Date.now()
    const socket = connect(service.port, '127.0.0.1', () => socket.write(text))
    socket.on('error', () => undefined)
    socket.resume()
    socket.on('close', () => resolve(Date.now() - started))
    setTimeout(() => reject(new Error('the server kept the connection open for 10 s')), 10_000).unref()
  })
}

describe('slow clients are cut off', () => {
  it('a request whose headers never end', async () => {
    expect(await heldFor('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ')).toBeLessThan(3_000)
  })

  it('a request whose body never ends', async () => {
    expect(
      await heldFor('POST /api/client/register HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\n{'),
    ).toBeLessThan(4_000)
  })
})
