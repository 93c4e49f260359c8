/**
 * deploy/sluice.yaml: sluice's own loader accepts it, the ConfigMap holds it, and every variable it uses (and
 * SLUICE_SESSION_KEY) is provided by the Secret and by docker compose.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../src/config/load.js';
import { CONFIG_PATH, CONFIG_TEXT, EXAMPLE_ENV, REQUIRED_VARS, compose, config, configMap, container, environment, replicas, runtime, secret, secretData, type Json } from '../helpers/deploy.js';
import { ROOT } from '../helpers/servers.js';

describe('deploy/sluice.yaml', () => {
  it('passes sluice’s own config loader and makes a cluster config', () => {
    expect(config.listen.host).toBe('0.0.0.0');
    expect(config.state.url).toBe(EXAMPLE_ENV.SLUICE_STATE_URL);
    expect(config.security.audit.url).toBe(EXAMPLE_ENV.SLUICE_AUDIT_URL);
    expect(config.security.audit.signingKeyFile).toBe('/etc/sluice/keys/audit-signing-key.pem');
    expect(config.dataDir).toBe('/var/lib/sluice');
    expect(REQUIRED_VARS.sort()).toEqual(['SLUICE_AUDIT_URL', 'SLUICE_STATE_URL']);
    // The variables are really needed: without them the loader refuses.
    expect(() => parseConfig(CONFIG_TEXT, CONFIG_PATH, {})).toThrow(ConfigError);
  });

  it('names an upstream that exists inside the image and speaks stdio', () => {
    expect(config.servers).toHaveLength(1);
    const server = config.servers[0];
    if (server.transport !== 'stdio') throw new Error('expected a stdio upstream');
    expect(server.command).toBe('node');
    const [entry, transport] = server.args;
    expect(entry.startsWith('/app/node_modules/')).toBe(true);
    expect(existsSync(path.join(ROOT, entry.slice('/app/'.length))), entry).toBe(true);
    const pkgDir = path.join(ROOT, 'node_modules/@modelcontextprotocol/server-everything');
    const bin = JSON.parse(readFileSync(path.join(pkgDir, 'package.json'), 'utf8')).bin['mcp-server-everything'];
    expect(path.join(pkgDir, bin)).toBe(path.join(ROOT, entry.slice('/app/'.length)));
    expect(transport).toBe('stdio');
    expect(readFileSync(path.join(pkgDir, bin), 'utf8')).toContain('case "stdio"');
    // The image puts node_modules there.
    expect(runtime.find((i) => i.op === 'WORKDIR')?.args).toBe('/app');
    expect(runtime.some((i) => i.op === 'COPY' && /\/app\/node_modules \.\/node_modules$/.test(i.args))).toBe(true);
  });

  it('is what the ConfigMap holds', () => {
    expect(configMap.data['sluice.yaml']).toBe(CONFIG_TEXT);
  });
});

describe('environment: every variable the config uses, and SLUICE_SESSION_KEY, is provided', () => {
  const NEEDED = [...REQUIRED_VARS, 'SLUICE_SESSION_KEY'];

  it('by the Secret, through the Deployment', () => {
    for (const name of NEEDED) {
      expect(Object.keys(secretData), name).toContain(name);
      const env = container.env.find((e: Json) => e.name === name);
      expect(env?.valueFrom?.secretKeyRef, name).toEqual({ name: secret.metadata.name, key: name });
    }
  });

  it('with placeholders that shape-check but cannot be run as they are', () => {
    // The example URLs have the shape sluice's loader wants…
    const fromSecret = parseConfig(CONFIG_TEXT, CONFIG_PATH, secretData);
    expect(fromSecret.state.url).toBe(secretData.SLUICE_STATE_URL);
    expect(fromSecret.security.audit.url).toBe(secretData.SLUICE_AUDIT_URL);
    // …but every value says to replace it, and the session key is not a valid one (sluice refuses to start).
    for (const [key, value] of Object.entries(secretData)) expect(value, key).toMatch(/REPLACE-ME/);
    expect(secretData.SLUICE_SESSION_KEY).not.toMatch(/^[0-9a-fA-F]{64}$/);
  });

  it('by docker compose, on every replica', () => {
    for (const [name, s] of replicas) {
      const env = environment(s.environment);
      for (const v of NEEDED) expect(env[v], `${name}: ${v}`).toBeTruthy();
      // Compose fills ${POSTGRES_PASSWORD:?…} itself; with a value there, sluice's loader accepts the URLs.
      const filled = Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v.replace(/\$\{[^}]*\}/g, 'example')]));
      const parsed = parseConfig(CONFIG_TEXT, CONFIG_PATH, filled);
      // The URLs point at the compose services, with the database's own user and name.
      const pg = compose.services.postgres.environment;
      expect(new URL(parsed.state.url!).hostname).toBe('redis');
      const audit = new URL(parsed.security.audit.url!);
      expect([audit.hostname, audit.username, audit.pathname]).toEqual(['postgres', pg.POSTGRES_USER, `/${pg.POSTGRES_DB}`]);
    }
  });
});
