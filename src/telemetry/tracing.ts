import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Context, type ContextManager, type Span, type Tracer } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { NodeSDK } from '@opentelemetry/sdk-node';
import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { lifecycle, type RequestStartEvent, type StepEvent, type TraceCarrier, type UpstreamStartEvent } from '../lifecycle.js';
import { SLUICE_VERSION } from '../version.js';

const propagator = new W3CTraceContextPropagator();

/**
 * sluice hands every span its parent explicitly (the lifecycle events carry them), so it needs no ambient
 * context: this manager keeps none. The SDK's default (AsyncLocalStorage over async_hooks on Node 20) would
 * tax every promise in the process, traced or not.
 */
class ExplicitContextOnly implements ContextManager {
  active(): Context {
    return ROOT_CONTEXT;
  }
  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(_context: Context, fn: F, thisArg?: ThisParameterType<F>, ...args: A): ReturnType<F> {
    return fn.call(thisArg, ...args);
  }
  bind<T>(_context: Context, target: T): T {
    return target;
  }
  enable(): this {
    return this;
  }
  disable(): this {
    return this;
  }
}
const setter = { set: (carrier: Record<string, unknown>, key: string, value: string) => void (carrier[key] = value) };
const getter = {
  get: (carrier: Record<string, unknown>, key: string) => (typeof carrier[key] === 'string' ? (carrier[key]) : undefined),
  keys: (carrier: Record<string, unknown>) => Object.keys(carrier),
};

/**
 * OpenTelemetry traces by the MCP semantic conventions, fed by the lifecycle channels: a SERVER span per client
 * request named `{mcp.method.name} {target}`, parented on the `traceparent` / `tracestate` the client sent in
 * `params._meta`; a CLIENT span per upstream request, its context stamped into the upstream request's `_meta`;
 * `error.type` (`tool_error` for an `isError` result). The exporter, endpoint, protocol and sampler come from the
 * standard OTEL_* variables (NodeSDK reads them); tests pass their own span processor.
 */
export class GatewayTracing {
  private readonly sdk: NodeSDK;
  private readonly tracer: Tracer;
  private readonly unsubscribe: (() => void)[] = [];

  constructor(options: { spanProcessors?: SpanProcessor[] } = {}) {
    this.sdk = new NodeSDK({
      serviceName: 'sluice',
      instrumentations: [],
      contextManager: new ExplicitContextOnly(),
      ...(options.spanProcessors ? { spanProcessors: options.spanProcessors } : {}),
    });
    this.sdk.start();
    this.tracer = trace.getTracer('sluice', SLUICE_VERSION);
    this.unsubscribe.push(
      lifecycle.requestStart.subscribe((e) => this.startServer(e)),
      lifecycle.request.subscribe((e) => end(e.trace, e.errorType)),
      lifecycle.upstreamStart.subscribe((e) => this.startClient(e)),
      lifecycle.upstreamRequest.subscribe((e) => end(e.trace, e.errorType)),
      lifecycle.step.subscribe((e) => this.stepSpan(e)),
    );
  }

  /** A chokepoint step (or an approval wait) as a span of the request, by the guardrail conventions. */
  private stepSpan(e: StepEvent): void {
    const parentSpan = e.trace.span as Span | undefined;
    // An unsampled request records nothing: its steps need no spans at all.
    if (!parentSpan?.isRecording()) return;
    const span = this.tracer.startSpan(
      e.step === 'approval' ? 'approval wait' : `guardrail ${e.step}`,
      {
        kind: SpanKind.INTERNAL,
        startTime: performance.timeOrigin + e.startMs,
        attributes: { 'gen_ai.guardrail.name': e.step, 'gen_ai.guardrail.verdict': e.verdict, 'gen_ai.guardrail.action': e.action },
      },
      trace.setSpan(ROOT_CONTEXT, parentSpan),
    );
    if (e.verdict === 'deny') span.setStatus({ code: SpanStatusCode.ERROR, message: `refused at the ${e.step} step` });
    span.end(performance.timeOrigin + e.startMs + e.durationMs);
  }

  private startServer(e: RequestStartEvent): void {
    const parent = e.trace.traceparent ? propagator.extract(ROOT_CONTEXT, { traceparent: e.trace.traceparent, ...(e.trace.tracestate ? { tracestate: e.trace.tracestate } : {}) }, getter) : ROOT_CONTEXT;
    const span = this.tracer.startSpan(
      e.target ? `${e.method} ${e.target}` : e.method,
      {
        kind: SpanKind.SERVER,
        attributes: {
          'mcp.method.name': e.method,
          ...targetAttributes(e.method, e.target),
          ...(e.sessionId ? { 'mcp.session.id': e.sessionId } : {}),
          'network.transport': e.transport === 'stdio' ? 'pipe' : 'tcp',
        },
      },
      parent,
    );
    e.trace.span = span;
    e.trace.traceId = span.spanContext().traceId;
  }

  private startClient(e: UpstreamStartEvent): void {
    const parentSpan = e.parent.span as Span | undefined;
    const parent = parentSpan ? trace.setSpan(ROOT_CONTEXT, parentSpan) : ROOT_CONTEXT;
    const span = this.tracer.startSpan(
      e.target ? `${e.method} ${e.target}` : e.method,
      { kind: SpanKind.CLIENT, attributes: { 'mcp.method.name': e.method, ...targetAttributes(e.method, e.target), 'server.address': e.server } },
      parent,
    );
    e.trace.span = span;
    e.trace.traceId = span.spanContext().traceId;
    propagator.inject(trace.setSpan(ROOT_CONTEXT, span), e.meta, setter);
  }

  /** Ends the channels' part and flushes what is buffered. */
  async stop(): Promise<void> {
    for (const off of this.unsubscribe) off();
    await this.sdk.shutdown().catch(() => undefined);
  }
}

function targetAttributes(method: string, target: string | undefined): Record<string, string> {
  if (target === undefined) return {};
  if (method === 'tools/call') return { 'gen_ai.tool.name': target, 'gen_ai.operation.name': 'execute_tool' };
  if (method === 'prompts/get') return { 'gen_ai.prompt.name': target };
  if (method.startsWith('resources/')) return { 'mcp.resource.uri': target };
  return {};
}

function end(carrier: TraceCarrier | undefined, errorType: string | undefined): void {
  const span = carrier?.span as Span | undefined;
  if (!span) return;
  if (carrier?.auditSeq !== undefined) span.setAttribute('sluice.audit.seq', carrier.auditSeq);
  if (errorType) {
    span.setAttribute('error.type', errorType);
    span.setStatus({ code: SpanStatusCode.ERROR });
  }
  span.end();
}
