import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { findEngine } from '../setup/engines.js';
import { ROOT } from './servers.js';
import { freePort, stopChild } from './spawn.js';
import { waitFor } from './wait.js';

export interface Nginx {
  url: string;
  stop(): Promise<void>;
}

/**
 * nginx with deploy/nginx.conf — the very file the deployment ships — pointed at replicas on loopback ports:
 * only the addresses, the listen port and the paths of its files are rewritten.
 */
export async function startNginx(replicaPorts: readonly number[]): Promise<Nginx> {
  const binary = findEngine('nginx');
  if (!binary) throw new Error('nginx is not installed (the global setup in test/setup/engines.ts installs it)');
  const dir = mkdtempSync(path.join(tmpdir(), 'sluice-nginx-'));
  chmodSync(dir, 0o755);
  for (const sub of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(path.join(dir, sub), { mode: 0o777 });
  const port = await freePort();
  const conf = localConf(readFileSync(path.join(ROOT, 'deploy/nginx.conf'), 'utf8'), replicaPorts, port, dir);
  const file = path.join(dir, 'nginx.conf');
  writeFileSync(file, conf);
  const child: ChildProcess = spawn(binary, ['-p', dir, '-c', file, '-g', `daemon off; pid ${path.join(dir, 'nginx.pid')};`], { stdio: ['ignore', 'ignore', 'pipe'] });
  let errors = '';
  child.stderr!.on('data', (c: Buffer) => (errors += c.toString()));
  const url = `http://127.0.0.1:${port}`;
  await waitFor(
    async () => {
      if (child.exitCode !== null) throw new Error(`nginx exited: ${errors}`);
      return fetch(`${url}/healthz`).then(
        () => true,
        () => false,
      );
    },
    10_000,
    'nginx',
  );
  return {
    url,
    stop: async () => {
      await stopChild(child, 'SIGQUIT', 3000); // nginx's graceful stop
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function localConf(conf: string, replicaPorts: readonly number[], port: number, dir: string): string {
  const servers = conf.match(/^(\s*)server\s+[A-Za-z0-9.-]+:\d+([^;]*);\n/m);
  if (!servers) throw new Error('deploy/nginx.conf has no upstream server lines');
  const [, indent, options] = servers;
  const upstream = replicaPorts.map((p) => `${indent}server 127.0.0.1:${p}${options};\n`).join('');
  const temps = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `    ${t}_temp_path ${path.join(dir, t === 'client_body' ? 'body' : t)};\n`).join('');
  return conf
    .replace(/^(\s*server\s+[A-Za-z0-9.-]+:\d+[^;]*;\n)+/m, upstream)
    .replace(/^(\s*)listen\s+\d+;/m, `$1listen 127.0.0.1:${port};`)
    .replace(/^worker_processes\s+[^;]+;/m, 'worker_processes 1;')
    .replace(/^error_log\s+[^;]+;/m, `error_log ${path.join(dir, 'error.log')} warn;`)
    .replace(/^(\s*)access_log\s+[^;]+;/m, '$1access_log off;')
    .replace(/^http \{\n/m, (m) => m + temps);
}
