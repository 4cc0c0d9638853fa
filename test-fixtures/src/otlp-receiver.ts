// An OTLP/HTTP traces receiver for tracing tests: a real node:http server on 127.0.0.1 that
// accepts `POST /v1/traces` and keeps what arrives. JSON bodies are decoded into spans;
// protobuf bodies are kept as bytes (the exporter packages ship an encoder, not a decoder).
import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import { waitFor } from './wait-for.js'

/** A span as OTLP/JSON carries it, with its resource's and scope's names beside it. */
export interface ReceivedSpan {
  traceId: string
  spanId: string
  parentSpanId?: string
  /** The spans this one was caused by besides its parent (a batched call's other requests). */
  links: { traceId: string; spanId: string }[]
  name: string
  /** 1 internal, 2 server, 3 client (OTLP's SpanKind). */
  kind: number
  attributes: Record<string, string | number | boolean>
  status?: { code?: number; message?: string }
  scope: string
  resource: Record<string, string | number | boolean>
}

export interface ReceivedExport {
  path: string
  contentType: string
  headers: IncomingHttpHeaders
  body: Buffer
}

export interface OtlpReceiver {
  /** The base endpoint, for OTEL_EXPORTER_OTLP_ENDPOINT (`http://127.0.0.1:<port>`). */
  url: string
  exports: ReceivedExport[]
  /** Every span of the JSON exports received so far. */
  spans(): ReceivedSpan[]
  waitForSpans(predicate: (spans: ReceivedSpan[]) => boolean, timeoutMs?: number): Promise<ReceivedSpan[]>
  close(): Promise<void>
}

interface AnyValue {
  stringValue?: string
  intValue?: string | number
  boolValue?: boolean
  doubleValue?: number
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const exports: ReceivedExport[] = []
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      exports.push({
        path: req.url ?? '',
        contentType: req.headers['content-type'] ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks),
      })
      const json = String(req.headers['content-type']).startsWith('application/json')
      res.writeHead(200, { 'content-type': json ? 'application/json' : 'application/x-protobuf' })
      res.end(json ? '{}' : '')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  const spans = () =>
    exports.filter((received) => received.contentType.startsWith('application/json')).flatMap(decodeJson)
  return {
    url: `http://127.0.0.1:${port}`,
    exports,
    spans,
    async waitForSpans(predicate, timeoutMs = 10_000) {
      await waitFor(async () => predicate(spans()), 'the spans expected at the OTLP receiver', timeoutMs)
      return spans()
    },
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}

// --- Internal helpers ---

function decodeJson(received: ReceivedExport): ReceivedSpan[] {
  const body = JSON.parse(received.body.toString('utf8')) as {
    resourceSpans?: {
      resource?: { attributes?: KeyValue[] }
      scopeSpans?: { scope?: { name?: string }; spans?: RawSpan[] }[]
    }[]
  }
  return (body.resourceSpans ?? []).flatMap((resourceSpans) =>
    (resourceSpans.scopeSpans ?? []).flatMap((scopeSpans) =>
      (scopeSpans.spans ?? []).map((span) => ({
        traceId: span.traceId,
        spanId: span.spanId,
        ...(span.parentSpanId ? { parentSpanId: span.parentSpanId } : {}),
        links: (span.links ?? []).map(({ traceId, spanId }) => ({ traceId, spanId })),
        name: span.name,
        kind: span.kind,
        attributes: attributesOf(span.attributes),
        ...(span.status ? { status: span.status } : {}),
        scope: scopeSpans.scope?.name ?? '',
        resource: attributesOf(resourceSpans.resource?.attributes),
      })),
    ),
  )
}

interface KeyValue {
  key: string
  value: AnyValue
}

interface RawSpan {
  traceId: string
  spanId: string
  parentSpanId?: string
  links?: { traceId: string; spanId: string }[]
  name: string
  kind: number
  attributes?: KeyValue[]
  status?: { code?: number; message?: string }
}

function attributesOf(list: KeyValue[] | undefined): Record<string, string | number | boolean> {
  const attributes: Record<string, string | number | boolean> = {}
  for (const { key, value } of list ?? []) {
    if (value.stringValue !== undefined) attributes[key] = value.stringValue
    else if (value.intValue !== undefined) attributes[key] = Number(value.intValue)
    else if (value.doubleValue !== undefined) attributes[key] = value.doubleValue
    else if (value.boolValue !== undefined) attributes[key] = value.boolValue
  }
  return attributes
}
