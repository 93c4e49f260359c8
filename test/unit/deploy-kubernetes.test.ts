/** deploy/k8s: non-root replicas on a read-only root, mounts where sluice looks, a grace longer than sluice's, agreeing selectors. */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIG_PATH, GRACE_SECONDS, config, configMap, container, deployment, hpa, imageUid, pdb, pod, secret, secretData, service, type Json } from '../helpers/deploy.js';

describe('kubernetes', () => {
  const labels = deployment.spec.template.metadata.labels;
  const selects = (selector: Record<string, string>) => Object.entries(selector).every(([k, v]) => labels[k] === v);

  it('runs 3 non-root replicas on a read-only root file system', () => {
    expect(deployment.spec.replicas).toBe(3);
    expect(pod.securityContext.runAsNonRoot).toBe(true);
    expect(pod.securityContext.runAsUser).toBe(imageUid());
    expect(container.securityContext).toMatchObject({ runAsNonRoot: true, readOnlyRootFilesystem: true, allowPrivilegeEscalation: false });
    expect(container.securityContext.capabilities.drop).toContain('ALL');
    expect(container.resources.requests.cpu).toBeDefined(); // the HPA's utilisation is relative to it
    expect(container.resources.limits.memory).toBeDefined();
  });

  it('mounts the config, the signing key, the data dir and /tmp where sluice looks', () => {
    expect(container.args).toEqual(['serve', '--config', CONFIG_PATH]);
    const mount = (at: string) => container.volumeMounts.find((m: Json) => m.mountPath === at);
    const volume = (name: string) => pod.volumes.find((v: Json) => v.name === name);

    const cfg = mount(CONFIG_PATH);
    expect(volume(cfg.name).configMap.name).toBe(configMap.metadata.name);
    expect(cfg.subPath).toBe('sluice.yaml');

    const keyFile = config.security.audit.signingKeyFile;
    const keys = mount(path.dirname(keyFile));
    expect(keys.readOnly).toBe(true);
    const keyVolume = volume(keys.name).secret;
    expect(keyVolume.secretName).toBe(secret.metadata.name);
    expect(keyVolume.items).toEqual([{ key: path.basename(keyFile), path: path.basename(keyFile) }]);
    expect(Object.keys(secretData)).toContain(path.basename(keyFile));

    for (const dir of [config.dataDir, '/tmp']) expect(volume(mount(dir).name).emptyDir, dir).toBeDefined();
  });

  it('gives a stopping replica longer than sluice’s shutdown grace', () => {
    const preStop = container.lifecycle?.preStop?.exec?.command;
    const sleep = preStop?.[0] === 'sleep' ? Number(preStop[1]) : 0;
    expect(pod.terminationGracePeriodSeconds).toBeGreaterThan(GRACE_SECONDS + sleep);
  });

  it('labels and selectors agree; no session affinity', () => {
    expect(deployment.spec.selector.matchLabels).toEqual(labels);
    expect(selects(service.spec.selector)).toBe(true);
    expect(service.spec.sessionAffinity ?? 'None').toBe('None');
    expect(selects(pdb.spec.selector.matchLabels)).toBe(true);
    expect(pdb.apiVersion).toBe('policy/v1');
    expect(pdb.spec.minAvailable === 2 || pdb.spec.maxUnavailable === 1).toBe(true);
    expect(hpa.apiVersion).toBe('autoscaling/v2');
    expect(hpa.spec.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name: deployment.metadata.name });
    expect(hpa.spec.metrics).toEqual([expect.objectContaining({ type: 'Resource', resource: expect.objectContaining({ name: 'cpu' }) })]);
    expect(hpa.spec.minReplicas).toBeGreaterThan(pdb.spec.minAvailable ?? 0);
    expect(hpa.spec.maxReplicas).toBeGreaterThanOrEqual(hpa.spec.minReplicas);
  });
});
