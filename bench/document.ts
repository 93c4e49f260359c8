import type { Machine } from './machine.js';
import type { AimResult, Summary } from './report.js';
import { DEFAULTS, type Settings } from './settings.js';

export interface DocumentInput {
  settings: Settings;
  machine: Machine;
  started: Date;
  seconds: number;
  summaries: Summary[];
  /** The rendered results tables, one per client kind. */
  tables: string[];
  ratios: string;
  cpu: string[];
  /** Gateway CPU per call of each peer relative to sluice. */
  cpuRatios: string;
  /** The rendered in-process chokepoint table; undefined when the run skipped it. */
  chokepoint: string | undefined;
  /** Further in-process measurements (audit log, agent catalog), rendered. */
  extra: string;
  aims: AimResult[];
}

/** The command that reproduces this run: `npm run bench` plus any setting that differs from the defaults. */
function commandOf(s: Settings): string {
  const env = [
    s.rounds !== DEFAULTS.rounds && `BENCH_ROUNDS=${s.rounds}`,
    s.calls !== DEFAULTS.calls && `BENCH_CALLS=${s.calls}`,
    s.warmup !== DEFAULTS.warmup && `BENCH_WARMUP=${s.warmup}`,
    s.warmupRound !== DEFAULTS.warmupRound && `BENCH_WARMUP_ROUND=${s.warmupRound}`,
    s.maxCellSeconds !== DEFAULTS.maxCellSeconds && `BENCH_MAX_SECONDS=${s.maxCellSeconds}`,
    s.chokepointCalls !== DEFAULTS.chokepointCalls && `BENCH_CHOKEPOINT_CALLS=${s.chokepointCalls}`,
  ].filter(Boolean);
  return `${env.length ? `${env.join(' ')} ` : ''}npm run bench`;
}

/** BENCHMARKS.md: the numbers of one run, with everything needed to judge and reproduce them. */
export function renderDocument(d: DocumentInput): string {
  const { settings: s, machine: m } = d;
  const minCalls = Math.min(...d.summaries.map((x) => x.calls));
  return `# Benchmarks

<!-- Written by \`npm run bench\` (bench/run.ts). Re-run it rather than editing the numbers by hand. -->

\`echo\` tool calls on \`@modelcontextprotocol/server-everything\` (stdio): directly, through three Streamable
HTTP → stdio gateways (sluice, mcp-proxy, supergateway), and against a raw floor. sluice runs twice: with
security on (a bearer token and a realistic role) and with every security check off, so the cost of the
chokepoint shows end to end. Every HTTP path is measured with two clients: the official SDK client (what
users run) and a lean keep-alive \`node:http\` client (which shows the gateway's own cost). Separately, the
chokepoint's own cost per call is measured in process.

## Aims

${d.aims.map((a) => `- ${a.met === undefined ? '· not measured:' : a.met ? '✅ met:' : '❌ missed:'} ${a.text}`).join('\n')}

## Run

- Command: \`${commandOf(s)}\` (from the repository root)
- Date: ${d.started.toISOString()}; the run took ${Math.round(d.seconds)} s
- Machine: ${m.cpu}, ${m.cores} logical cores, ${m.memoryGiB} GiB RAM; ${m.os}
- Node ${m.node}; sluice ${m.commit}, built by \`npm run bench\` (tsc) and run from dist/, as \`npm start\` runs it
- Peers: ${Object.entries(m.versions).map(([n, v]) => `${n} ${v}`).join(', ')}
- ${s.rounds} rounds; per cell (path × client × concurrency) ${s.calls} timed calls after ${s.warmup} warm-up calls,
  stopping early after ${s.maxCellSeconds} s (the smallest cell here rests on ${minCalls} calls over all rounds);
  one untimed pass of ${s.warmupRound} calls per cell before the first round

## Results

calls/s is the median over the rounds; p50 and p99 are latencies over every call of every round, in ms.
c = concurrent callers; over HTTP each caller has its own MCP session.

${d.tables.join('\n\n')}

### Ratios

${d.ratios}

**ceiling** = 1 / (1/raw floor + 1/direct stdio), per round: an estimate of the calls/s of a gateway that did
nothing but one bare HTTP exchange and one bare stdio exchange per call (the two costs simply added). So
\`ceiling ÷ peer\` estimates how far ahead of that peer any HTTP → stdio gateway could be on this machine; where it
is below an aim, no gateway could meet that aim here.

**sluice on ÷ sluice off** compares two configurations of one gateway. Where they differ by only tens of µs
of CPU per call, that is less than the host's swing from one round to the next and the row moves by several
points from run to run; the gateway CPU row \`sluice off ÷ sluice on\` below is the steadier measure of what
security costs.

${d.cpu.join('\n\n')}

CPU time per call from /proc (all threads): **gateway** = the gateway process (for the raw floor, the floor
server itself), **server** = the server-everything process(es) behind it, **client** = the bench process
(the client library and the timing loop). Unlike calls/s, these barely move with the host's load. At c=1
every figure is higher: each call wakes the processes from sleep, and caches are cold. With only
${m.cores} cores the client's CPU counts against throughput too: the lean client spends more per call than
the raw floor server does, so at c>1 the lean figures of the fastest paths are partly bound by the client.

${d.cpuRatios}
${
  d.chokepoint === undefined
    ? ''
    : `
### Chokepoint cost per call (in process, default filters)

${d.chokepoint}

\`bench/chokepoint.ts\`, run in the bench process before any target starts: \`runToolCall\` (identity, pause, rate
limit, tool rule, operation, paths, information flow, content filters and labelling, record) around an
"upstream" that returns a fixed result at once, for a role like sluice's security-on one (see Method:
\`default: approve\`, tool rules, the default filters \`secret: redact, pii: label, injection: label\`, plus a rate
limit it never reaches) and prose-like results with nothing to find; no audit log is attached, so the record
step only builds and announces the decision (\`node --import tsx bench/audit.ts\` measures the audit log's
write rate). **bare await** is the same loop without the pipeline. The filters scan the whole result, so the
cost grows with its size.
`
}
${d.extra ? `\n${d.extra}\n` : ''}
## Method

- Everything runs on 127.0.0.1 on this one machine: clients, gateways and servers share its ${m.cores} cores,
  so at high concurrency the client process competes with the gateway for CPU.
- **sluice**: \`node dist/cli/main.js serve --config <tmp> --listen 127.0.0.1:<port>\` with one stdio
  upstream (server-everything, shared by all sessions) and \`logLevel: warn\`; the tool is \`everything__echo\`.
  Two configurations, the same in everything but security:
  - **security on** (\`sluice\`): authentication on (each client sends a bearer token made with sluice's token
    store) for an agent whose role is what a deployment would write: \`default: approve\`, tool rules
    \`"everything__*": allow\` and \`"everything__get-env": deny\`, \`paths: { allow: ["/tmp/**"] }\` and the default
    filters \`{ secret: redact, pii: label, injection: label }\`; the audit log at its default (on: hash-chained
    records in SQLite under the temporary directory, each committed before its result goes out). Every call
    passes the whole chokepoint (authentication, tool rule, operation, path and flow checks, content filters,
    audit record) and is allowed.
  - **security off** (\`sluice-open\`): \`auth: { required: false, anonymousAgent: bench }\` (no token; allowed on
    loopback only), \`audit: { enabled: false }\` and the role \`{ default: allow, onFlowViolation: allow,
    filters: { secret: off, pii: off, injection: off } }\`: no rules, no rate limit, no filters, no audit log,
    the cheapest the pipeline can be. The aim for security on is at least 90% of these calls/s.
  - **with OAuth** (\`sluice-oauth\`): the security-on configuration plus \`auth.oauth\` (an oidc-provider on loopback as
    the issuer, \`"mcp:read": bench\`); the client sends an RS256 JWT access token from that provider instead of a
    sluice token (aim: at least 95% of the sluice-token calls/s).
  - **on shared state** (\`sluice-shared\`): the security-on configuration plus \`state.url\` (a redis-server on
    loopback, started by the bench) and \`audit.url\` (an embedded Postgres 18 on loopback with fsync and
    synchronous_commit on, as a server ships), \`SLUICE_SESSION_KEY\` set, the token in Redis: one replica,
    compared with the embedded defaults (aim: at least 80% of their calls/s). \`BENCH_PG_FSYNC=0\` runs Postgres
    without fsync.
  - **a cluster** (\`sluice-cluster\`): three such replicas behind nginx with the shipped \`deploy/nginx.conf\`
    (round robin, no stickiness), on the same two cores: it shows what the extra hops cost, not scaling. CPU per
    call is the sluice processes' own; Redis, Postgres and nginx are not counted.
- **mcp-proxy**: \`mcp-proxy --host 127.0.0.1 --port <port> --server stream -- node <server-everything> stdio\`
  (one shared server process, like sluice).
- **supergateway**: \`supergateway --stdio "node <server-everything> stdio" --outputTransport streamableHttp
  --stateful --port <port> --logLevel none\` (one server process per session, spawned at initialize). It has
  no host option and binds every interface, so \`test/fixtures/force-loopback.cjs\` is preloaded
  (\`NODE_OPTIONS=--require\`) to bind 127.0.0.1. \`--logLevel none\` because its default logs every message
  and sluice runs with warnings only: each gateway runs at its quietest.
- Before measuring, the bench checks in /proc/net that every port it opened listens on loopback only.
- **Raw floor**: \`bench/raw-floor.ts\`, a bare \`node:http\` server in its own process answering initialize and
  tools/call with a fixed \`Echo: …\` result and a session id: no MCP library, no upstream hop. No Node gateway
  can do less per call.
- **Direct stdio**: one server-everything process and its one connection; at c>1 the callers share it (a stdio
  server has exactly one client), as the callers of sluice and mcp-proxy share their one upstream.
- **SDK client**: \`Client\` + \`StreamableHTTPClientTransport\` from \`@modelcontextprotocol/client\` (default,
  legacy negotiation) per session, \`callTool\` per call; over stdio, \`StdioClientTransport\`.
- **Lean client**: \`node:http\` with a keep-alive agent; initialize (2025-11-25), Mcp-Session-Id, then one POST
  per \`tools/call\` with \`Accept: application/json, text/event-stream\`, reading JSON or SSE answers (mcp-proxy and
  supergateway answer with SSE). Over stdio, raw JSON lines.
- Each caller starts its next call as soon as its previous one returns. Every answer is checked to be exactly
  \`Echo: <message>\`; a wrong answer aborts the run.
- All sessions are opened at the start and closed (DELETE) at the end. Each round measures every path at one
  concurrency, then at the next, starting at a different path each time, so the paths a ratio compares were
  measured seconds apart and host noise spreads evenly.

## Re-running

\`npm run bench\` rewrites this file. Environment variables: \`BENCH_QUICK=1\` (a smoke run; prints only),
\`BENCH_ROUNDS\`, \`BENCH_CALLS\`, \`BENCH_WARMUP\`, \`BENCH_WARMUP_ROUND\`, \`BENCH_MAX_SECONDS\`,
\`BENCH_CONCURRENCY=1,8,64\`, \`BENCH_PATHS=stdio,raw-floor,sluice,sluice-noaudit,sluice-open,sluice-oauth,sluice-shared,sluice-cluster,mcp-proxy,supergateway\`,
\`BENCH_CLIENTS=sdk,lean\` (a narrowed run prints only), \`BENCH_OUT=<file>\` (\`BENCH_OUT=\` to print only),
\`BENCH_CHOKEPOINT_CALLS\` (calls of the in-process chokepoint measurement; 0 skips it), and
\`BENCH_SLUICE_NODE_ARGS\` (e.g. \`--cpu-prof --cpu-prof-dir=/tmp/prof\` to profile sluice under load; it applies
to every sluice process). The in-process measurements load sluice from dist/ as well, so run \`npm run build\` before
running one alone: \`node --import tsx bench/chokepoint.ts\` runs the chokepoint measurement alone;
\`node --import tsx bench/audit-postgres.ts\` the audit log's write rate on Postgres with one and three writers;
\`node --import tsx bench/oauth.ts\` what authentication costs per request.
`;
}
