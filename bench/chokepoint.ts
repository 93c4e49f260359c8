/**
 * The chokepoint's own cost per tools/call, in process: the full pipeline (identity, pause, rate limit, tool
 * rule, operation, paths, information flow, filters and labelling, record) around an "upstream" that answers
 * at once, so what is measured is sluice's security work and nothing else.
 *
 *   node --import tsx bench/chokepoint.ts
 */
import { AuditRecorder, Hooks, memoryState, MemoryTokenStore, type Params, parseConfig, runChecked, Security, silentLogger } from './sluice-internals.js';

const CONFIG = `
agents:
  bench: { role: developer }
roles:
  developer:
    default: approve
    tools:
      "everything__*": allow
      "everything__get-env": deny
      "files__*": allow
    filters: { secret: redact, pii: label, injection: label }
    rateLimit: { perSecond: 1000000000, burst: 1000000000 }
mcpServers:
  everything:
    command: node
`;

/** Prose-like text of about `bytes` bytes with no secrets in it: the common case the filters must pass fast. */
function prose(bytes: number): string {
  const sentence = 'The quick brown fox jumps over the lazy dog while the gateway checks every call it forwards. ';
  return sentence.repeat(Math.ceil(bytes / sentence.length)).slice(0, bytes);
}

export interface ChokepointFigure {
  size: string;
  calls: number;
  usPerCall: number;
  baselineUsPerCall: number;
}

export async function measureChokepoint(calls = 20_000, sizes: [string, number][] = [['1 KiB', 1024], ['64 KiB', 65536]]): Promise<ChokepointFigure[]> {
  const config = parseConfig(CONFIG, 'bench.yaml', {});
  const state = memoryState();
  // The recorder without an audit log, with a decision listener as telemetry would have: what is measured is the pipeline.
  const recorder = new AuditRecorder(undefined, silentLogger, 1024, 'bench');
  const security = new Security(config, { ...state, tokens: new MemoryTokenStore(), hooks: new Hooks([], () => undefined), recorder });
  const server = config.servers[0];
  const tool: Params = { name: 'everything__echo', annotations: { readOnlyHint: true }, inputSchema: { type: 'object', properties: { message: { type: 'string' } } } };
  const figures: ChokepointFigure[] = [];
  for (const [size, bytes] of sizes) {
    const result: Params = { content: [{ type: 'text', text: prose(bytes) }] };
    const execute = async () => result;
    const call = () =>
      runChecked({
        method: 'tools/call',
        security,
        principal: { agent: 'bench', role: 'developer', via: 'token' },
        holder: { id: 'bench-session', agent: 'bench', stateless: false },
        transport: 'http',
        target: 'everything__echo',
        arguments: { message: 'hello' },
        resolve: () => ({ server, upstreamName: 'echo', definition: tool }),
        execute,
      });
    const n = bytes > 4096 ? Math.max(500, Math.floor(calls / 20)) : calls;
    for (let i = 0; i < Math.min(2000, n); i++) await call(); // warm up the JIT
    let start = process.hrtime.bigint();
    for (let i = 0; i < n; i++) await call();
    const total = Number(process.hrtime.bigint() - start) / 1000;
    // The same awaits without the pipeline: what a bare forward would cost here.
    start = process.hrtime.bigint();
    for (let i = 0; i < n; i++) await execute();
    const baseline = Number(process.hrtime.bigint() - start) / 1000;
    figures.push({ size, calls: n, usPerCall: total / n, baselineUsPerCall: baseline / n });
  }
  return figures;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = await measureChokepoint(Number(process.env.BENCH_CALLS ?? 20_000));
  console.log('| result size | calls | chokepoint µs/call | bare await µs/call |');
  console.log('| --- | ---: | ---: | ---: |');
  for (const f of figures) console.log(`| ${f.size} | ${f.calls} | ${f.usPerCall.toFixed(1)} | ${f.baselineUsPerCall.toFixed(2)} |`);
}
