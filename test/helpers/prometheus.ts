import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { findEngine } from '../setup/engines.js';
import { freePort, stopChild } from './spawn.js';
import { waitFor } from './wait.js';

export interface Prometheus {
  url: string;
  /** An instant query over the HTTP API; the values of the result's series. */
  query(promql: string): Promise<{ metric: Record<string, string>; value: number }[]>;
  stop(): Promise<void>;
}

/** A real Prometheus on a loopback port, scraping `target` (host:port) every second, with storage in a temp dir. */
export async function startPrometheus(target: string, options: { bearer?: string } = {}): Promise<Prometheus> {
  const binary = findEngine('prometheus');
  if (!binary) throw new Error('prometheus is not installed (the global setup in test/setup/engines.ts installs it)');
  const dir = mkdtempSync(path.join(tmpdir(), 'sluice-prometheus-'));
  const port = await freePort();
  const config = path.join(dir, 'prometheus.yml');
  writeFileSync(
    config,
    [
      'global: { scrape_interval: 1s, evaluation_interval: 1s }',
      'scrape_configs:',
      '  - job_name: sluice',
      '    metrics_path: /metrics',
      ...(options.bearer ? [`    authorization: { credentials: ${JSON.stringify(options.bearer)} }`] : []),
      `    static_configs: [{ targets: [${JSON.stringify(target)}] }]`,
      '',
    ].join('\n'),
  );
  const child: ChildProcess = spawn(binary, [`--config.file=${config}`, `--storage.tsdb.path=${path.join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`, '--log.level=warn'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let said = '';
  child.stderr!.on('data', (c: Buffer) => (said = (said + c.toString()).slice(-2000)));
  const url = `http://127.0.0.1:${port}`;
  await waitFor(
    async () => {
      if (child.exitCode !== null) throw new Error(`prometheus exited: ${said}`);
      return fetch(`${url}/-/ready`).then((r) => r.ok, () => false);
    },
    20_000,
    'prometheus ready',
  );
  return {
    url,
    query: async (promql) => {
      const res = await fetch(`${url}/api/v1/query?${new URLSearchParams({ query: promql })}`);
      const body = (await res.json()) as { status: string; data?: { result: { metric: Record<string, string>; value: [number, string] }[] }; error?: string };
      if (body.status !== 'success') throw new Error(`query ${promql}: ${body.error}`);
      return body.data!.result.map((r) => ({ metric: r.metric, value: Number(r.value[1]) }));
    },
    stop: async () => {
      await stopChild(child);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
