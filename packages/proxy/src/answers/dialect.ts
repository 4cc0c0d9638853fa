// What an evaluation protocol supplies to the answer pipeline (pipeline.ts), and only that: how it
// reads its request, how it makes its context, how it evaluates and writes its body, its headers
// and its cache namespace. The old proxy's /proxy, the frontend API and OFREP are each one
// (protocols/), as unstorage's drivers each fill one interface.
import type { H3Event } from 'h3'
import type { Context, EvaluationTrace } from '@vexil/engine'
import type { CachedResponse } from '../cache/response-cache.js'
import type { FlagSet } from '../scope/flag-set.js'
import type { AnswerHeaders } from './send-answer.js'

/** A request as a dialect read it: what keys its answer, and whatever else the dialect needs later. */
export interface ReadRequest {
  /** Distinguishes the dialect's routes and methods within its namespace (e.g. GET /proxy from POST /proxy/all). */
  variant: string
  /** The part of the request the answer depends on, as sent: the query string or the body. */
  raw: string
}

/** The context to evaluate, and what the answer-sharing rule (shareable.ts) must know of how it was made. */
export interface DialectContext {
  context: Context
  /** The proxy made up a sessionId for this request. */
  sessionInjected: boolean
  /** Enrichers ran on the context. */
  enriched: boolean
}

/** An answer's body as the dialect wrote it, before the pipeline adds how long it stays valid. */
export interface MadeAnswer {
  body: string
  bytes: number
  etag: string
  counted?: CachedResponse['counted']
  registration?: CachedResponse['registration']
  /** 200 unless the protocol answers a result with another status (OFREP's single flag). */
  status?: number
}

export interface AnswerDialect<R extends ReadRequest = ReadRequest, C extends DialectContext = DialectContext> {
  /**
   * The prefix of every cache key of this protocol, unique among dialects, so no two protocols'
   * keys collide; undefined when its answers are never kept (OFREP's single flag).
   */
  namespace: string | undefined
  headers: AnswerHeaders
  /** Reads the request (its refusals: 404 for a path it has no flag for, 415, 413). */
  read(event: H3Event, flags: FlagSet): R | Promise<R>
  /** Parses what `read` kept into the context to evaluate (400 for what the protocol refuses). */
  context(request: R, event: H3Event, clientAddress: string | undefined): Promise<C> | C
  /** Evaluates over the request's flag set and writes the body. */
  evaluate(flags: FlagSet, made: C, request: R, trace: EvaluationTrace, event: H3Event): MadeAnswer
  /** Called with every answer sent, from the cache or not (the old proxy counts a listed POST's toggles, OFREP registers its caller). */
  sent?(answer: CachedResponse, event: H3Event): void
}
