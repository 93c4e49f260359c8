import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Gateway } from '../gateway/gateway.js';
import { lifecycle } from '../lifecycle.js';
import { Activity } from './activity.js';

/** The OpenTelemetry MCP semantic conventions' buckets for mcp.*.operation.duration (seconds). */
export const MCP_DURATION_BUCKETS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];
/** A name no catalog entry has: what unknown tool names are counted under, so clients cannot grow the label set. */
const UNKNOWN = '_unknown';

/**
 * Prometheus metrics, fed by the lifecycle channels (decisions: this gateway's own), and read from the gateway
 * when scraped. Label values are bounded: methods by the protocol, tool and prompt names by the catalog (anything
 * else counts as `_unknown`), servers and steps by the config; never a session id, URI or argument.
 */
export class GatewayMetrics {
  readonly registry = new Registry();
  /** The last minutes, per second, for the console's charts. */
  readonly activity: Activity;
  private readonly unsubscribe: (() => void)[] = [];

  constructor(private readonly gateway: Gateway) {
    this.activity = new Activity(gateway);
    this.unsubscribe.push(() => this.activity.stop());
    const r = [this.registry];
    const server = new Histogram({
      name: 'mcp_server_operation_duration_seconds',
      help: 'Duration of MCP requests sluice answered as a server (mcp.server.operation.duration).',
      labelNames: ['mcp_method_name', 'gen_ai_tool_name', 'error_type', 'network_transport'],
      buckets: MCP_DURATION_BUCKETS,
      registers: r,
    });
    const client = new Histogram({
      name: 'mcp_client_operation_duration_seconds',
      help: 'Duration of MCP requests sluice sent to upstream servers as a client (mcp.client.operation.duration).',
      labelNames: ['mcp_method_name', 'server', 'error_type'],
      buckets: MCP_DURATION_BUCKETS,
      registers: r,
    });
    const decisions = new Counter({ name: 'sluice_decisions_total', help: 'Decisions of the chokepoint, by the step that decided and the outcome.', labelNames: ['step', 'outcome', 'method'], registers: r });
    const rateLimited = new Counter({ name: 'sluice_rate_limit_refusals_total', help: 'Calls refused by a rate limit.', registers: r });
    const commit = new Histogram({
      name: 'sluice_audit_commit_duration_seconds',
      help: 'How long committing one batch of audit records took.',
      labelNames: ['outcome'],
      buckets: [0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 5],
      registers: r,
    });
    const committed = new Counter({ name: 'sluice_audit_records_committed_total', help: 'Audit records committed.', registers: r });
    const dropped = new Counter({
      name: 'sluice_messages_dropped_total',
      help: 'Messages the method table does not carry, dropped: by sender (client or upstream) and method (`unknown` for a method the table does not name).',
      labelNames: ['from', 'method'],
      registers: r,
    });
    this.gauges(r);

    this.unsubscribe.push(
      lifecycle.request.subscribe((e) => {
        server.observe({ mcp_method_name: e.method, gen_ai_tool_name: this.toolLabel(e.method, e.target), error_type: e.errorType ?? '', network_transport: e.transport }, e.durationS);
      }),
      lifecycle.upstreamRequest.subscribe((e) => client.observe({ mcp_method_name: e.method, server: e.server, error_type: e.errorType ?? '' }, e.durationS)),
      lifecycle.dropped.subscribe((e) => dropped.inc({ from: e.from, method: e.method })),
      lifecycle.auditCommit.subscribe((e) => {
        commit.observe({ outcome: e.ok ? 'ok' : 'failed' }, e.durationS);
        if (e.ok) committed.inc(e.records);
      }),
      gateway.onDecision((d) => {
        decisions.inc({ step: d.step ?? '', outcome: d.outcome, method: d.method });
        if (d.step === 'rate-limit' && d.outcome === 'deny') rateLimited.inc();
      }),
    );
  }

  /** What is read when scraped: approvals waiting, sessions, upstream states, the audit backlog. */
  private gauges(r: Registry[]): void {
    const gateway = this.gateway;
    new Gauge({
      name: 'sluice_audit_queue_depth',
      help: 'Audit records waiting to be committed.',
      registers: r,
      collect() {
        this.set(gateway.audit?.waiting ?? 0);
      },
    });
    new Gauge({
      name: 'sluice_approvals_pending',
      help: 'Calls waiting for a human decision.',
      registers: r,
      async collect() {
        this.set((await gateway.approvals.list().catch(() => [])).length);
      },
    });
    new Gauge({
      name: 'sluice_sessions',
      help: 'Client sessions this replica holds, by transport and protocol era.',
      labelNames: ['network_transport', 'era'],
      registers: r,
      collect() {
        this.reset();
        for (const s of gateway.sessions.all.values()) this.inc({ network_transport: s.transport, era: s.stateless ? 'stateless' : 'legacy' });
      },
    });
    new Gauge({
      name: 'sluice_upstream_up',
      help: 'Whether each shared upstream server is ready (1) or not (0), with its state.',
      labelNames: ['server', 'state'],
      registers: r,
      collect() {
        this.reset();
        for (const u of gateway.upstreams) this.set({ server: u.name, state: u.state }, u.state === 'ready' ? 1 : 0);
      },
    });
  }

  /** A tool or prompt name as a label: only names in the catalog, so a client cannot mint label values. */
  private toolLabel(method: string, target: string | undefined): string {
    if (target === undefined) return '';
    if (method === 'tools/call') return this.gateway.catalog.toolDefinitions.has(target) ? target : UNKNOWN;
    if (method === 'prompts/get') return this.gateway.catalog.promptRoutes.has(target) ? target : UNKNOWN;
    return '';
  }

  /** The text exposition, for GET /metrics. */
  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  stop(): void {
    for (const off of this.unsubscribe) off();
  }
}
