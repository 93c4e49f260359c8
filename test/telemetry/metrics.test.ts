import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileTokenStore } from '../../src/identity/tokens.js';
import { connectWithToken } from '../helpers/clients.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { startPrometheus, type Prometheus } from '../helpers/prometheus.js';
import { EVERYTHING } from '../helpers/servers.js';
import { waitFor } from '../helpers/wait.js';

/**
 * /metrics scraped by a real Prometheus (Debian's, on loopback) and queried over its HTTP API: the counts and a
 * histogram quantile match the traffic sent, label values stay bounded, and who may read the endpoint.
 */
let gw: TestGateway;
let prometheus: Prometheus;
let tokens: { alice: string; admin: string };

beforeAll(async () => {
  gw = await startTestGateway(`listen: 127.0.0.1:0
logLevel: silent
agents:
  alice: { role: dev }
roles:
  dev:
    default: deny
    tools: { "everything__echo": allow, "everything__get-sum": allow, "everything__get-env": deny }
    rateLimit: { perSecond: 1000, burst: 1000, tools: { "everything__get-sum": { perSecond: 0.01, burst: 1 } } }
mcpServers:
  everything:
    command: node
    args: [${JSON.stringify(EVERYTHING)}, stdio]
`);
  const store = new FileTokenStore(gw.gateway.config.security.tokensFile);
  tokens = { alice: store.create('alice').token, admin: store.create('admin:operator').token };
  prometheus = await startPrometheus(new URL(gw.url).host);
}, 60_000);
afterAll(async () => {
  await prometheus?.stop();
  await gw?.stop();
});

const metricsUrl = () => gw.url.replace(/\/mcp$/, '/metrics');

describe('Prometheus metrics', () => {
  it('counts calls by method, tool and error type, decisions by step and outcome, and gives a plausible latency quantile', async () => {
    const client = await connectWithToken(gw.url, tokens.alice, 'metrics');
    for (let i = 0; i < 10; i++) expect((await client.callTool({ name: 'everything__echo', arguments: { message: `m${i}` } })).isError).toBeFalsy();
    for (let i = 0; i < 3; i++) expect((await client.callTool({ name: 'everything__get-env', arguments: {} })).isError).toBe(true);
    for (let i = 0; i < 40; i++) await client.callTool({ name: `everything__no-such-tool-${i}`, arguments: {} }).catch(() => undefined); // -32602 Unknown tool
    expect((await client.callTool({ name: 'everything__get-sum', arguments: { a: 1, b: 2 } })).isError).toBeFalsy();
    expect((await client.callTool({ name: 'everything__get-sum', arguments: { a: 1, b: 2 } })).isError).toBe(true); // rate limited
    await client.close();

    const count = async (q: string) => (await prometheus.query(q)).reduce((n, r) => n + r.value, 0);
    await waitFor(async () => (await count('sum(mcp_server_operation_duration_seconds_count{mcp_method_name="tools/call"})')) === 55, 15_000, 'Prometheus to scrape all 55 calls');
    expect(await count('mcp_server_operation_duration_seconds_count{gen_ai_tool_name="everything__echo",error_type=""}')).toBe(10);
    expect(await count('mcp_server_operation_duration_seconds_count{gen_ai_tool_name="everything__get-env",error_type="tool_error"}')).toBe(3);
    // 40 made-up names are one label value, not 40 (and their error type is the JSON-RPC code).
    const unknown = await prometheus.query('mcp_server_operation_duration_seconds_count{mcp_method_name="tools/call",gen_ai_tool_name="_unknown",error_type="-32602"}');
    expect(unknown.map((r) => r.value).reduce((a, b) => a + b, 0)).toBe(40);
    expect(await count('count(count by (gen_ai_tool_name) (mcp_server_operation_duration_seconds_count{mcp_method_name="tools/call"}))')).toBe(4);
    expect(await count('sluice_decisions_total{step="tool-rule",outcome="deny"}')).toBeGreaterThanOrEqual(3);
    expect(await count('sluice_rate_limit_refusals_total')).toBe(1);
    // The upstream side: each allowed call went to server-everything once (10 echoes, one get-sum).
    expect(await count('mcp_client_operation_duration_seconds_count{mcp_method_name="tools/call",server="everything"}')).toBe(11);
    const p50 = await count('histogram_quantile(0.5, sum by (le) (mcp_server_operation_duration_seconds_bucket{gen_ai_tool_name="everything__echo"}))');
    expect(p50).toBeGreaterThan(0);
    expect(p50).toBeLessThanOrEqual(0.1); // an echo through sluice on loopback
    expect(await count('sluice_upstream_up{server="everything",state="ready"}')).toBe(1);
    expect(await count('sluice_audit_records_committed_total')).toBeGreaterThan(50);
    expect(await count('sluice_approvals_pending')).toBe(0);
  });

  it('exposes the spec\'s metric names and buckets, and nothing that identifies a session or an argument', async () => {
    const text = await (await fetch(metricsUrl())).text();
    expect(text).toContain('# TYPE mcp_server_operation_duration_seconds histogram');
    expect(text).toMatch(/mcp_server_operation_duration_seconds_bucket\{le="0\.01",/);
    expect(text).toMatch(/mcp_server_operation_duration_seconds_bucket\{le="300",/);
    expect(text).not.toMatch(/m[0-9]"|session_id|mcp_session/);
  });

  it('lets loopback read /metrics, and asks anyone else — or everyone with access: operator — for an operator token', async () => {
    const strict = await startTestGateway(`listen: 127.0.0.1:0\nlogLevel: silent\nmetrics: { access: operator }\nagents: { a: { role: r } }\nroles: { r: { default: allow } }\nmcpServers: {}\n`);
    try {
      const url = strict.url.replace(/\/mcp$/, '/metrics');
      const store = new FileTokenStore(strict.gateway.config.security.tokensFile);
      const [agent, operator] = [store.create('a').token, store.create('admin:operator').token];
      await new Promise((r) => setTimeout(r, 1100)); // the gateway re-reads its token file at most once a second
      expect((await fetch(url)).status).toBe(401);
      expect((await fetch(url, { headers: { authorization: `Bearer ${agent}` } })).status).toBe(403);
      const ok = await fetch(url, { headers: { authorization: `Bearer ${operator}` } });
      expect(ok.status).toBe(200);
      expect(await ok.text()).toContain('sluice_upstream_up');
    } finally {
      await strict.stop();
    }
    expect((await fetch(metricsUrl())).status).toBe(200); // the default: loopback needs no token
  });

  it('counts its own gateway\'s decisions only, though every gateway in the process publishes on one channel', async () => {
    const other = await startTestGateway(`listen: 127.0.0.1:0\nlogLevel: silent\nagents: { a: { role: r } }\nroles: { r: { default: deny } }\nmcpServers: {}\n`);
    const decisionsOf = async (url: string) => [...(await (await fetch(url)).text()).matchAll(/^sluice_decisions_total\{.*\} (\d+)$/gm)].reduce((n, m) => n + Number(m[1]), 0);
    const heard: string[] = [];
    const off = other.gateway.onDecision((e) => heard.push(`${e.method} ${e.target}`));
    try {
      const token = new FileTokenStore(other.gateway.config.security.tokensFile).create('a').token;
      await new Promise((r) => setTimeout(r, 1100)); // the gateway re-reads its token file at most once a second
      const here = await decisionsOf(metricsUrl());
      const client = await connectWithToken(other.url, token, 'other');
      for (let i = 0; i < 3; i++) await client.callTool({ name: 'nowhere__x', arguments: {} }).catch(() => undefined);
      await client.close();
      expect(heard.filter((d) => d === 'tools/call nowhere__x')).toHaveLength(3);
      expect(await decisionsOf(other.url.replace(/\/mcp$/, '/metrics'))).toBeGreaterThanOrEqual(3);
      expect(await decisionsOf(metricsUrl())).toBe(here);
    } finally {
      off();
      await other.stop();
    }
  });
});
