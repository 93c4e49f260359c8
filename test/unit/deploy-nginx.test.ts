/** deploy/nginx.conf: what it must say for sluice's streams and sessions, and that nginx itself accepts it (`nginx -t`, nothing started). */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findEngine } from '../setup/engines.js';
import { NGINX, NGINX_DIRECTIVES, replicas, seconds } from '../helpers/deploy.js';

describe('deploy/nginx.conf', () => {
  it('round robin without stickiness, streams unbuffered, WebSocket upgrades passed, POSTs never replayed', () => {
    expect(NGINX_DIRECTIVES).not.toMatch(/(^|[;{])\s*(ip_hash|hash|sticky)\b/m);
    expect(NGINX_DIRECTIVES).toMatch(/^\s*proxy_buffering off;/m);
    expect(NGINX_DIRECTIVES).toMatch(/^\s*proxy_cache off;/m);
    expect(NGINX_DIRECTIVES).toMatch(/^\s*proxy_http_version 1\.1;/m);
    expect(NGINX_DIRECTIVES).toMatch(/^\s*map \$http_upgrade \$connection_upgrade \{/m);
    expect(NGINX_DIRECTIVES).toMatch(/^\s*proxy_set_header Upgrade \$http_upgrade;/m);
    expect(NGINX_DIRECTIVES).toMatch(/^\s*proxy_set_header Connection \$connection_upgrade;/m);
    expect(NGINX_DIRECTIVES).toMatch(/^\s*proxy_set_header Host \$host;/m);
    const nextUpstream = [...NGINX_DIRECTIVES.matchAll(/^\s*proxy_next_upstream\s+([^;]*);/gm)].map((m) => m[1]);
    expect(nextUpstream).toEqual(['error timeout']);
    const readTimeout = /^\s*proxy_read_timeout\s+(\w+);/m.exec(NGINX_DIRECTIVES)?.[1];
    expect(seconds(readTimeout)).toBeGreaterThanOrEqual(600);
  });

  describe('nginx -t', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sluice-nginx-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    /** deploy/nginx.conf with the replicas on loopback and nginx's temp paths in `dir`, checked by nginx itself. */
    function nginxTest(conf: string): { ok: boolean; output: string } {
      const binary = findEngine('nginx');
      if (!binary) throw new Error('nginx is not installed (the global setup in test/setup/engines.ts installs it; on Debian: apt-get install nginx)');
      let port = 18_000;
      const local = conf.replace(/^(\s*server\s+)([A-Za-z0-9.-]+):(\d+)/gm, (_m, lead: string) => `${lead}127.0.0.1:${++port}`);
      expect(port, 'the replicas were rewritten').toBe(18_000 + replicas.length);
      const temps = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `    ${t}_temp_path ${path.join(dir, t)};\n`).join('');
      const file = path.join(dir, 'nginx.conf');
      // Node gives a child sockets, not pipes, for stdout, and nginx cannot open() a socket: log to a file here.
      const logs = local.replace(/^(\s*access_log\s+)[^\s;]+/gm, (_m, lead: string) => `${lead}${path.join(dir, 'access.log')}`);
      writeFileSync(file, logs.replace(/^http \{\n/m, (m) => m + temps));
      const run = spawnSync(binary, ['-t', '-p', `${dir}/`, '-e', 'stderr', '-c', file, '-g', `pid ${path.join(dir, 'nginx.pid')};`], { encoding: 'utf8', timeout: 10_000 });
      return { ok: run.status === 0, output: `${run.stdout}${run.stderr}${run.error ? String(run.error) : ''}` };
    }

    it('accepts the config', () => {
      const result = nginxTest(NGINX);
      expect(result.output).toMatch(/syntax is ok/);
      expect(result.ok, result.output).toBe(true);
    });

    it('(and really checks it: a broken copy is refused)', () => {
      const result = nginxTest(NGINX.replace('proxy_buffering off;', 'proxy_buffering of;'));
      expect(result.ok).toBe(false);
      expect(result.output).toMatch(/proxy_buffering/);
    });
  });
});
