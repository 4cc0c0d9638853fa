// @vexil/server-kit: the few things the proxy and the service do alike, written once.

// Request bodies
export { ABORTED_BODY_MESSAGE, type BodyReadOptions, COMPRESSION_FRAMING_BYTES, readLimitedBody } from './read-body.js'
export { readLimitedWebBody } from './read-web-body.js'

// Conditional requests and files
export { matchesIfNoneMatch } from './if-none-match.js'
export { sendStaticAsset, type StaticAsset } from './static-asset.js'

// Server-sent events
export { EVENT_STREAM_BACKLOG_BYTES, type EventStream, openEventStream } from './event-stream.js'

// Requests as they ended, for metrics, logs and traces
export { observeRequest, type RequestObserver, type RequestRecord } from './request-observer.js'
export { type RequestTrace, requestTrace, serverSpans } from './request-spans.js'

// Processes
export { type CommandLine, type CommandLineOption, isPort, readCommandLine } from './command-line.js'
export { nextShutdownSignal } from './shutdown.js'

// Logging
export {
  createLogger,
  LOG_LEVELS,
  type Logger,
  type LoggerOptions,
  type LogLevel,
  redactingLogger,
  silentLogger,
} from './logger.js'
