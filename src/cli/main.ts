#!/usr/bin/env node
import { Command } from 'commander';
import { createLogger } from '../log.js';
import { forTerminal } from '../policy/printable.js';
import { SLUICE_VERSION } from '../version.js';
import { registerAgentCommand } from './agent-command.js';
import { registerAuditCommands } from './audit-commands.js';
import { registerDefinitionsCommands } from './definitions-command.js';
import { defaultConfigPath, loadOrExit } from './load-config.js';
import { registerOperatorCommands } from './operator-commands.js';

const program = new Command('sluice').description('MCP gateway and agent runtime').version(SLUICE_VERSION);

program
  .command('serve')
  .description('run the gateway: Streamable HTTP at /mcp, WebSocket at /ws, and optionally stdio')
  .option('-c, --config <file>', 'config file (YAML or JSON)')
  .option('-l, --listen <host:port>', 'address to listen on (overrides the config)')
  .option('--stdio', 'also serve MCP over this process\'s stdin/stdout')
  .option('--no-http', 'do not open the HTTP/WebSocket port (stdio only)')
  .action(async (opts: { config?: string; listen?: string; stdio?: boolean; http: boolean }) => {
    const file = opts.config ?? defaultConfigPath();
    const config = loadOrExit(file);
    if (opts.listen) {
      if (!/^(\[[0-9a-fA-F:]+\]|[A-Za-z0-9.-]+):\d{1,5}$/.test(opts.listen)) {
        process.stderr.write(`--listen: must be HOST:PORT, e.g. 127.0.0.1:8808\n`);
        process.exit(2);
      }
      const { splitHostPort } = await import('../config/load.js');
      const [host, port] = splitHostPort(opts.listen);
      config.listen = { host, port };
    }
    const log = createLogger(config.logLevel);
    log.info({ config: file, servers: config.servers.map((s) => s.name) }, 'starting sluice');
    // The gateway's modules load when it is asked for, so `sluice --version` and the other commands start fast.
    const { openGateway } = await import('./serve.js');
    const cannotStart = (err: unknown) => {
      process.stderr.write(`sluice: cannot start: ${forTerminal((err as Error).message, true)}\n`);
      process.exit(1);
    };
    let running: Awaited<ReturnType<typeof openGateway>>;
    try {
      // Listening at once: the upstreams connect in the background, and a stop signal is heard meanwhile.
      running = await openGateway(config, log, { stdio: opts.stdio, http: opts.http });
    } catch (err) {
      return cannotStart(err);
    }
    const shutdown = async (signal: string) => {
      log.info({ signal }, 'shutting down');
      await running.stop();
      process.exit(0);
    };
    process.once('SIGINT', () => void shutdown('SIGINT'));
    process.once('SIGTERM', () => void shutdown('SIGTERM'));
    await running.gateway.start().catch(cannotStart);
  });

const configCmd = program.command('config').description('work with config files');
configCmd
  .command('check')
  .argument('[file]', 'config file to check (default: ./sluice.yaml or the embedded default)')
  .description('validate a config; prints every problem with file, line and the allowed values')
  .action((file?: string) => {
    const path = file ?? defaultConfigPath();
    const config = loadOrExit(path);
    process.stdout.write(`${path}: OK (${config.servers.length} server${config.servers.length === 1 ? '' : 's'}: ${config.servers.map((s) => s.name).join(', ')})\n`);
  });

registerOperatorCommands(program);
registerAuditCommands(program);
registerDefinitionsCommands(program);
registerAgentCommand(program);

// A command that fails (a store unreachable, say) ends with one line saying why, not a stack trace.
await program.parseAsync().catch((err: unknown) => {
  process.stderr.write(`sluice: ${forTerminal(err instanceof Error ? err.message : err, true)}\n`);
  process.exit(1);
});
