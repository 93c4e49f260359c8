import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startGateway, type RunningGateway } from '../../src/cli/serve.js';
import { loadConfig, parseConfig } from '../../src/config/load.js';
import { silentLogger } from '../../src/log.js';

export interface TestGateway extends RunningGateway {
  url: string;
  wsUrl: string;
}

/** A real gateway in this process, on a free loopback port, from YAML text. */
export async function startTestGateway(yaml: string): Promise<TestGateway> {
  // Each gateway keeps its state (audit log, keys) in a folder of its own.
  const withData = /^dataDir:/m.test(yaml) ? yaml : `dataDir: ${JSON.stringify(mkdtempSync(path.join(tmpdir(), 'sluice-data-')))}\n${yaml}`;
  const config = parseConfig(withData, 'test.yaml');
  const running = await startGateway(config, silentLogger);
  const port = running.address!.port;
  return { ...running, url: `http://127.0.0.1:${port}/mcp`, wsUrl: `ws://127.0.0.1:${port}/ws` };
}

/** A real gateway from a config file on disk, for tests that also run the CLI against the same file. */
export async function startGatewayFromFile(file: string): Promise<TestGateway> {
  const running = await startGateway(loadConfig(file), silentLogger);
  const port = running.address!.port;
  return { ...running, url: `http://127.0.0.1:${port}/mcp`, wsUrl: `ws://127.0.0.1:${port}/ws` };
}
