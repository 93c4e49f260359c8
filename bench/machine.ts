import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from './paths.js';

export interface Machine {
  cpu: string;
  cores: number;
  memoryGiB: number;
  os: string;
  node: string;
  /** Versions of everything measured, so a reader can tell which builds the numbers belong to. */
  versions: Record<string, string>;
  /** sluice's commit, with "+ uncommitted changes" when the work tree differs from it. */
  commit: string;
}

function cpuModel(): string {
  try {
    const line = readFileSync('/proc/cpuinfo', 'utf8').split('\n').find((l) => l.startsWith('model name'));
    if (line) return line.split(':')[1].trim();
  } catch {
    // Not Linux: fall back to what Node reports.
  }
  return os.cpus()[0]?.model ?? 'unknown';
}

function packageVersion(name: string): string {
  try {
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version?: string };
    return pkg.version ?? '?';
  } catch {
    return 'not installed';
  }
}

function gitCommit(): string {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--', 'src'], { cwd: ROOT, encoding: 'utf8' }).trim() !== '';
    return dirty ? `${head} + uncommitted changes in src/` : head;
  } catch {
    return 'unknown';
  }
}

export function describeMachine(): Machine {
  return {
    cpu: cpuModel(),
    cores: os.availableParallelism?.() ?? os.cpus().length,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    os: `${os.type()} ${os.release()} (${os.arch()})`,
    node: process.version,
    versions: Object.fromEntries(
      ['@modelcontextprotocol/client', '@modelcontextprotocol/server-everything', 'mcp-proxy', 'supergateway'].map((n) => [n, packageVersion(n)]),
    ),
    commit: gitCommit(),
  };
}
