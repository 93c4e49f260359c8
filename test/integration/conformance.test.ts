import { execFile } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/servers.js';

/**
 * The MCP conformance suite's server scenarios, through sluice and straight against the same fixture server:
 * every scenario that passes direct must pass through the gateway.
 */
describe('MCP conformance suite', () => {
  it('passes every active scenario through sluice that passes direct', async () => {
    const out = await new Promise<{ code: number; stdout: string }>((resolve) => {
      execFile(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/conformance.ts')], { cwd: ROOT, timeout: 170_000 }, (err, stdout) =>
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout }),
      );
    });
    const through = /Through sluice: (\d+) of (\d+) scenarios pass/.exec(out.stdout);
    const direct = /Direct:\s+(\d+) of (\d+) scenarios pass/.exec(out.stdout);
    expect(out.code, out.stdout.slice(-2000)).toBe(0);
    expect(through, out.stdout.slice(-2000)).not.toBeNull();
    expect(Number(through![1])).toBe(Number(through![2]));
    expect(Number(through![1])).toBe(Number(direct![1]));
    expect(Number(through![2])).toBeGreaterThanOrEqual(30);
  }, 180_000);
});
