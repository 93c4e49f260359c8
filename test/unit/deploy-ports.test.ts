/** The deployment's ports, probes and health checks: one port everywhere, on paths sluice answers, with a Host it lets through. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkLocalRequest } from '../../src/transports/guards.js';
import { PORT, config, container, healthcheckUrl, nginxUpstreamServers, replicas, request, runtime, service, type Json } from '../helpers/deploy.js';
import { ROOT } from '../helpers/servers.js';

describe('ports, probes and health checks', () => {
  const HTTP_SOURCE = readFileSync(path.join(ROOT, 'src/transports/http-front.ts'), 'utf8');

  it('sluice answers the probed paths', () => {
    expect(HTTP_SOURCE).toContain("path === '/readyz'");
    expect(HTTP_SOURCE).toContain("path === '/healthz'");
  });

  it('every port is the config’s listen port', () => {
    const named = (port: number | string) => (typeof port === 'number' ? port : container.ports.find((p: Json) => p.name === port)?.containerPort);
    expect(container.ports.map((p: Json) => p.containerPort)).toEqual([PORT]);
    expect(named(container.readinessProbe.httpGet.port)).toBe(PORT);
    expect(named(container.livenessProbe.httpGet.port)).toBe(PORT);
    expect(service.spec.ports).toHaveLength(1);
    expect(named(service.spec.ports[0].targetPort)).toBe(PORT);
    expect(runtime.filter((i) => i.op === 'EXPOSE').map((i) => i.args)).toEqual([String(PORT)]);
    expect(healthcheckUrl(runtime.find((i) => i.op === 'HEALTHCHECK')!.args)).toBe(`http://127.0.0.1:${PORT}/readyz`);
    for (const [name, s] of replicas) expect(healthcheckUrl(s.healthcheck.test.join(' ')), name).toBe(`http://127.0.0.1:${PORT}/readyz`);
    for (const server of nginxUpstreamServers()) expect(server.port).toBe(PORT);
  });

  it('probes are /readyz and /healthz, with a Host that sluice’s DNS-rebinding guard lets through', () => {
    const readiness = container.readinessProbe.httpGet;
    const liveness = container.livenessProbe.httpGet;
    expect(readiness.path).toBe('/readyz');
    expect(liveness.path).toBe('/healthz');
    for (const probe of [readiness, liveness]) {
      const host = probe.httpHeaders?.find((h: Json) => h.name.toLowerCase() === 'host')?.value;
      expect(host, 'the kubelet sends the pod IP as Host unless told otherwise').toBeDefined();
      expect(checkLocalRequest(config, request(`${host}:${PORT}`))).toBeUndefined();
    }
    // Which is why: the pod's own address is refused.
    expect(checkLocalRequest(config, request(`10.1.2.3:${PORT}`))).toMatch(/Invalid Host/);
    // The container health checks use 127.0.0.1, and the names behind the load balancer are allowed.
    expect(checkLocalRequest(config, request(`127.0.0.1:${PORT}`))).toBeUndefined();
    expect(checkLocalRequest(config, request('sluice.example.com'))).toBeUndefined();
  });
});
