// The one way an evaluation is answered, for every protocol: read the request -> look up the
// answer cache -> make the context -> evaluate -> serialize -> send. A protocol is a dialect
// (dialect.ts) supplying only what differs. The router has answered 503 (no flags) and 401/403
// (no valid credential) before; the request answers from the flag set it was routed with, so a
// repeated identical request is answered from that set's cache before anything is parsed.
import type { H3Event } from 'h3'
import { CustomStrategyError, type EvaluationTrace } from '@vexil/engine'
import { answerKey, type CachedResponse } from '../cache/response-cache.js'
import type { ClientAddress } from '../http/client-ip.js'
import { ProxyError } from '../http/errors.js'
import type { Logger } from '../logger.js'
import type { PrometheusExporter } from '../prometheus.js'
import type { AnswerDialect, DialectContext, MadeAnswer, ReadRequest } from './dialect.js'
import type {} from './request-state.js'
import { type AnswerMethod, sendAnswer } from './send-answer.js'
import { mayShareAnswer } from './shareable.js'

export interface PipelineOptions {
  logger: Pick<Logger, 'error'>
  prometheus: Pick<PrometheusExporter, 'responseCache'>
  clientAddress: ClientAddress
}

/** A route handler answering every request in `dialect`. */
export function answerPipeline<R extends ReadRequest, C extends DialectContext>(
  dialect: AnswerDialect<R, C>,
  options: PipelineOptions,
): (event: H3Event) => Promise<void> {
  const { logger, prometheus } = options
  const cached = dialect.namespace !== undefined
  const send = (event: H3Event, answer: CachedResponse, status?: number) => {
    dialect.sent?.(answer, event)
    event.context.responseBytes = sendAnswer(
      event.node.req,
      event.node.res,
      event.method as AnswerMethod,
      event.context.cors!,
      answer,
      dialect.headers,
      status,
    )
  }

  return async (event) => {
    // The route waits for flags: without a set the router answered 503.
    const flags = event.context.flags!
    const clientAddress = options.clientAddress(event)
    // A GET's request and context are made without a turn of the event loop; a POST waits for its body.
    const read = dialect.read(event, flags)
    const request = read instanceof Promise ? await read : read
    const cache = cached ? flags.responseCache : undefined
    const key = cache ? answerKey(`${dialect.namespace}:${request.variant}|`, clientAddress, request.raw) : ''
    const hit = cache?.get(key, Date.now)
    if (hit) {
      prometheus.responseCache('hit')
      send(event, hit)
      return
    }

    const context = dialect.context(request, event, clientAddress)
    const made = context instanceof Promise ? await context : context
    const trace: EvaluationTrace = { usedRandom: false, usedClock: false, usedCustomStrategy: false }
    let written: MadeAnswer
    try {
      written = dialect.evaluate(flags, made, request, trace, event)
    } catch (error) {
      if (error instanceof CustomStrategyError) {
        logger.error(error.message, error.cause)
        throw new ProxyError('INTERNAL', error.message)
      }
      throw error
    }
    // One literal, one shape: every answer the cache and sendAnswer see has the same hidden class.
    const answer: CachedResponse = {
      body: written.body,
      bytes: written.bytes,
      etag: written.etag,
      validUntil: trace.usedClock ? flags.engine.nextTimeBoundary(Date.now()) : Number.POSITIVE_INFINITY,
      counted: written.counted,
      registration: written.registration,
    }
    if (cache && mayShareAnswer({ trace, sessionInjected: made.sessionInjected, enriched: made.enriched }))
      cache.set(key, answer)
    if (cached) prometheus.responseCache('miss')
    send(event, answer, written.status)
  }
}
