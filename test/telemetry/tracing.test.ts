import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DecisionEvent } from '../../src/policy/decision.js';
import { connectV2 } from '../helpers/clients.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { ROOT } from '../helpers/servers.js';
import { FileTokenStore } from '../../src/identity/tokens.js';
import { waitFor } from '../helpers/wait.js';

/**
 * One trace from a client that sent `traceparent` through sluice's SERVER span and CLIENT span to an upstream that
 * recorded the `traceparent` it received in `_meta`, exported over OTLP/HTTP (JSON) to a receiver on loopback.
 */
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: { key: string; value: { stringValue?: string } }[];
  status?: { code?: number };
}

let receiver: Server;
const spans: OtlpSpan[] = [];
let gw: TestGateway;
let adminToken: string;
const decisions: DecisionEvent[] = [];

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.url === '/v1/traces') {
        const body = JSON.parse(Buffer.concat(chunks).toString()) as { resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[] };
        for (const rs of body.resourceSpans) for (const ss of rs.scopeSpans) spans.push(...ss.spans);
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', () => resolve()));
  Object.assign(process.env, {
    OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    OTEL_BSP_SCHEDULE_DELAY: '50',
    OTEL_TRACES_SAMPLER: 'parentbased_always_on',
  });
  gw = await startTestGateway(`listen: 127.0.0.1:0
logLevel: silent
auth: { required: false, anonymousAgent: anon }
agents: { anon: { role: r } }
roles: { r: { default: allow, tools: { "gated__*": approve } } }
approvals: { timeoutSeconds: 20 }
mcpServers:
  trace:
    command: node
    args: [${JSON.stringify(path.join(ROOT, 'test/fixtures/trace-recorder.mjs'))}]
  gated:
    command: node
    args: [${JSON.stringify(path.join(ROOT, 'test/fixtures/trace-recorder.mjs'))}]
`);
  adminToken = new FileTokenStore(gw.gateway.config.security.tokensFile).create('admin:operator').token;
  gw.gateway.onDecision((e) => decisions.push(e));
}, 60_000);
afterAll(async () => {
  await gw?.stop();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

const attr = (s: OtlpSpan, key: string) => s.attributes.find((a) => a.key === key)?.value.stringValue;

describe('traces', () => {
  it('continue the client\'s trace through a SERVER and a CLIENT span to the upstream, and the audit record names the trace', async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const clientSpan = '00f067aa0ba902b7';
    const client = await connectV2(gw.url, 'legacy');
    const result = await client.callTool({ name: 'trace__echo_meta', arguments: {}, _meta: { traceparent: `00-${traceId}-${clientSpan}-01`, tracestate: 'vendor=x' } });
    const seen = JSON.parse((result.content as { text: string }[])[0].text) as { traceparent?: string; tracestate?: string };
    await client.close();

    await waitFor(() => spans.some((s) => s.kind === 2 && s.name === 'tools/call trace__echo_meta'), 10_000, 'the spans exported');
    const server = spans.find((s) => s.kind === 2 && s.name === 'tools/call trace__echo_meta')!;
    const upstream = spans.find((s) => s.kind === 3 && s.parentSpanId === server.spanId)!;
    expect(server).toMatchObject({ traceId, parentSpanId: clientSpan });
    expect(attr(server, 'mcp.method.name')).toBe('tools/call');
    expect(attr(server, 'gen_ai.tool.name')).toBe('trace__echo_meta');
    expect(attr(server, 'mcp.session.id')).toMatch(/^[0-9a-f]{32}\./);
    expect(upstream).toMatchObject({ traceId, name: 'tools/call echo_meta' });
    expect(attr(upstream, 'server.address')).toBe('trace');
    // The upstream received the CLIENT span's context in _meta: same trace, sluice's span as parent.
    expect(seen.traceparent).toBe(`00-${traceId}-${upstream.spanId}-01`);
    expect(seen.tracestate).toBe('vendor=x');
    // The audit record of the call names the same trace, and the span names the audit record.
    expect(decisions.find((d) => d.target === 'trace__echo_meta')?.traceId).toBe(traceId);
    const seq = server.attributes.find((a) => a.key === 'sluice.audit.seq')?.value as { intValue?: string | number } | undefined;
    const records = await gw.gateway.audit!.store.query({ afterSeq: Number(seq?.intValue) - 1, limit: 1 });
    expect(records[0]).toMatchObject({ seq: Number(seq?.intValue), target: 'trace__echo_meta', traceId });
    // One span per chokepoint step, by the guardrail conventions, children of the SERVER span.
    const steps = spans.filter((s) => s.parentSpanId === server.spanId && s.kind === 1);
    expect(steps.map((s) => attr(s, 'gen_ai.guardrail.name'))).toEqual(expect.arrayContaining(['pause', 'rate-limit', 'resolve', 'tool-rule', 'information-flow', 'content-filter']));
    expect(steps.every((s) => attr(s, 'gen_ai.guardrail.verdict') === 'pass' && attr(s, 'gen_ai.guardrail.action') === 'allow')).toBe(true);
  });

  it('shows the wait for a human as a span of its own', async () => {
    await new Promise((r) => setTimeout(r, 1100)); // the gateway re-reads its token file at most once a second
    const admin = (method: string, p: string, body?: unknown) =>
      fetch(gw.url.replace(/\/mcp$/, p), { method, headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) }).then((r) => r.json());
    const client = await connectV2(gw.url, 'legacy');
    const call = client.callTool({ name: 'gated__echo_meta', arguments: {} });
    let id = '';
    await waitFor(async () => Boolean((id = (await admin('GET', '/admin/approvals')).pending?.[0]?.id ?? '')), 10_000, 'the pending approval');
    await new Promise((r) => setTimeout(r, 200)); // a wait long enough to see
    await admin('POST', '/admin/approvals/decide', { id, decision: 'approve', scope: 'once' });
    expect((await call).isError).toBeFalsy();
    await client.close();
    await waitFor(() => spans.some((s) => s.name === 'approval wait'), 10_000, 'the approval span');
    const server = spans.find((s) => s.kind === 2 && s.name === 'tools/call gated__echo_meta')!;
    const wait = spans.find((s) => s.name === 'approval wait' && s.parentSpanId === server.spanId)!;
    expect([attr(wait, 'gen_ai.guardrail.verdict'), attr(wait, 'gen_ai.guardrail.action')]).toEqual(['pass', 'allow']);
    const askedBy = spans.find((s) => s.parentSpanId === server.spanId && attr(s, 'gen_ai.guardrail.name') === 'tool-rule')!;
    expect([attr(askedBy, 'gen_ai.guardrail.verdict'), attr(askedBy, 'gen_ai.guardrail.action')]).toEqual(['approve', 'ask']);
    const ms = (s: OtlpSpan & { startTimeUnixNano?: string; endTimeUnixNano?: string }) => (Number(s.endTimeUnixNano) - Number(s.startTimeUnixNano)) / 1e6;
    expect(ms(wait as never)).toBeGreaterThanOrEqual(150);
  });

  it('marks a refused or failed request with error.type', async () => {
    const client = await connectV2(gw.url, 'legacy');
    await client.callTool({ name: 'trace__nope', arguments: {} }).catch(() => undefined);
    await client.close();
    await waitFor(() => spans.some((s) => s.name === 'tools/call trace__nope'), 10_000, 'the refused call\'s span');
    const refused = spans.find((s) => s.name === 'tools/call trace__nope')!;
    expect(attr(refused, 'error.type')).toBe('-32602');
    expect(refused.status?.code).toBe(2); // ERROR
    const resolve = spans.find((s) => s.parentSpanId === refused.spanId && attr(s, 'gen_ai.guardrail.name') === 'resolve')!;
    expect([attr(resolve, 'gen_ai.guardrail.verdict'), attr(resolve, 'gen_ai.guardrail.action')]).toEqual(['deny', 'block']);
  });
});
