/**
 * How soon a stdio client gets its first answer: `sluice serve --stdio --no-http` spawned from the built CLI
 * (dist/, what `npm start` runs) in front of server-everything, timed from spawn to the initialize response,
 * and `sluice --version` alone. `npm run bench` builds dist first, so the figure is for the source as it is.
 *
 *   npm run build && node --import tsx bench/startup.ts
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CLI, EVERYTHING, ROOT } from './paths.js';

export interface StartupFigure {
  what: string;
  runs: number;
  medianMs: number;
  minMs: number;
  maxMs: number;
}

function firstAnswer(config: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [CLI, 'serve', '--stdio', '--no-http', '-c', config], { cwd: ROOT, stdio: ['pipe', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      if (!out.includes('\n')) return;
      const ms = performance.now() - started;
      child.stdin.end();
      child.once('exit', () => resolve(ms));
    });
    child.once('error', reject);
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } })}\n`);
  });
}

function version(): number {
  const started = performance.now();
  execFileSync(process.execPath, [CLI, '--version'], { cwd: ROOT });
  return performance.now() - started;
}

function figure(what: string, samples: number[]): StartupFigure {
  const sorted = [...samples].sort((a, b) => a - b);
  return { what, runs: samples.length, medianMs: sorted[Math.floor(sorted.length / 2)], minMs: sorted[0], maxMs: sorted[sorted.length - 1] };
}

export async function measureStartup(runs = 10): Promise<StartupFigure[]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'sluice-startup-'));
  const config = path.join(dir, 'sluice.yaml');
  writeFileSync(config, `logLevel: error\ndataDir: ${JSON.stringify(path.join(dir, 'data'))}\nauth: { required: false, anonymousAgent: b, stdioAgent: b }\nagents:\n  b: { role: r }\nroles:\n  r: { default: allow }\nmcpServers:\n  everything:\n    command: node\n    args: [${JSON.stringify(EVERYTHING)}, stdio]\n`);
  const spawnToAnswer: number[] = [];
  const versions: number[] = [];
  for (let i = 0; i < runs; i++) {
    spawnToAnswer.push(await firstAnswer(config));
    versions.push(version());
  }
  rmSync(dir, { recursive: true, force: true });
  return [figure('spawn → first answer (initialize), serve --stdio, server-everything behind it', spawnToAnswer), figure('sluice --version', versions)];
}

export function startupTable(figures: StartupFigure[]): string {
  return ['| what | runs | median ms | min ms | max ms |', '| :--- | ---: | ---: | ---: | ---: |', ...figures.map((f) => `| ${f.what} | ${f.runs} | ${f.medianMs.toFixed(0)} | ${f.minMs.toFixed(0)} | ${f.maxMs.toFixed(0)} |`)].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(startupTable(await measureStartup(Number(process.env.BENCH_STARTUP_RUNS ?? 10))));
}
