// `vexil start` traced (docs/operations.md, "Tracing"): one OpenTelemetry SDK for the service
// and the proxy in one process, one service name, each span's instrumentation scope saying which
// server made it; the proxy's upstream calls carry their traceparent, so the service's span of
// each continues the proxy's trace. Run as users run it: the vexil command as a child process,
// exporting to an OTLP receiver on 127.0.0.1.
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type OtlpReceiver, startOtlpReceiver } from '@vexil/test-fixtures/otlp-receiver.ts'
import { freePort } from '@vexil/test-fixtures/ports.ts'
import { waitFor } from '@vexil/test-fixtures/wait-for.ts'

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url))
const TRACE_ID = '5bf92f3577b34da6a3ce929d0e0e4736'
const TRACEPARENT = `00-${TRACE_ID}-10f067aa0ba902b7-01`
const SERVER = 2
const CLIENT = 3

describe('vexil start with OTEL_EXPORTER_OTLP_ENDPOINT', () => {
  const workdir = mkdtempSync(join(tmpdir(), 'vexil-traced-'))
  let receiver: OtlpReceiver
  beforeAll(async () => {
    receiver = await startOtlpReceiver()
  })
  afterAll(async () => {
    await receiver.close()
    rmSync(workdir, { recursive: true, force: true })
  })

  it("exports both servers' spans as one service, the service's under the proxy's calls", async () => {
    if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build first (npm ci does)`)
    const [proxyPort, servicePort] = [await freePort(), await freePort()]
    const child = spawn(process.execPath, [CLI, 'start'], {
      cwd: workdir,
      env: {
        PATH: process.env.PATH ?? '',
        PORT: String(proxyPort),
        SERVICE_PORT: String(servicePort),
        STORAGE_FILE_DIRECTORY: workdir,
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => (output += chunk))
    child.stderr.on('data', (chunk: Buffer) => (output += chunk))
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve))
    const kill = setTimeout(() => child.kill('SIGKILL'), 60_000)
    try {
      await waitFor(
        async () => output.includes('Press Ctrl-C to stop.') || child.exitCode !== null,
        'the start',
        45_000,
      )
      expect(output).toContain(`Exporting traces to ${receiver.url}/v1/traces (http/json) as service vexil`)
      const [, key, url] = /curl -H 'Authorization: ([^']+)' '([^']+)'/.exec(output)!
      const answer = await fetch(url!, { headers: { authorization: key!, traceparent: TRACEPARENT } })
      expect(answer.status).toBe(200)
      child.kill('SIGTERM')
      expect(await exited, output).toBe(0)
    } finally {
      clearTimeout(kill)
      child.kill('SIGKILL')
    }

    const spans = receiver.spans()
    expect(new Set(spans.map((span) => span.resource['service.name']))).toEqual(new Set(['vexil']))
    expect(spans.find((span) => span.kind === SERVER && span.traceId === TRACE_ID)).toMatchObject({
      scope: '@vexil/proxy',
      attributes: { 'http.route': '/proxy', 'http.response.status_code': 200 },
    })
    // Each upstream call of the proxy (token validation, registration, the stream) is continued by the service.
    const calls = spans.filter((span) => span.kind === CLIENT && span.scope === '@vexil/proxy')
    expect(calls.map((span) => span.name)).toEqual(
      expect.arrayContaining(['POST /edge/validate', 'POST /api/client/register', 'GET /api/client/streaming']),
    )
    const served = spans.filter((span) => span.kind === SERVER && span.scope === '@vexil/service')
    for (const call of calls) {
      expect(
        served.find((span) => span.traceId === call.traceId && span.parentSpanId === call.spanId),
        call.name,
      ).toMatchObject({ name: call.name, attributes: { 'http.route': call.name.split(' ')[1] } })
    }
  }, 90_000)
})
