import type { Command } from 'commander';
import { loadOrExit } from './load-config.js';

interface ScanFlags {
  config?: string;
  json?: boolean;
  all?: boolean;
}

/**
 * `sluice definitions scan`: connects to every configured server as a client would, reads what each offers
 * (tools, prompts, resources, templates, instructions) and runs the definition scanner over it, each tool beside
 * the other servers' tools. Exit 1 when something is flagged, so it can gate a deployment; 2 when no server
 * could be reached.
 */
export function registerDefinitionsCommands(program: Command): void {
  const definitions = program.command('definitions').description('what the configured servers tell the model about their tools, prompts and resources');
  definitions
    .command('scan')
    .description('scan every definition of the configured servers for tool poisoning (hidden text, orders to the model, exfiltration, shadowing, …)')
    .option('-c, --config <file>', 'config whose mcpServers to scan (default: ./sluice.yaml or the embedded default)')
    .option('--json', 'print every definition with its findings as JSON')
    .option('--all', 'also list definitions with no findings')
    .action(async (flags: ScanFlags) => {
      const servers = loadOrExit(flags.config).servers;
      // Loaded here: the MCP client and the scanner are not needed by other commands.
      const [{ AgentServers }, { scanServers }] = await Promise.all([import('../agent/servers.js'), import('../definitions/offer-scan.js')]);
      const connected = await AgentServers.connect(servers, { connectTimeoutMs: 30_000 });
      try {
        for (const f of connected.failures) process.stderr.write(`sluice definitions: server ${f.name}: ${f.reason}\n`);
        if (connected.offers.length === 0) {
          process.stderr.write('sluice definitions: no server could be reached\n');
          process.exitCode = 2;
          return;
        }
        const entries = scanServers(connected.offers.map((o) => ({ server: o.name, tools: o.tools, prompts: o.prompts, resources: o.resources, templates: o.templates, instructions: o.instructions })));
        const flagged = entries.filter((e) => e.scan.flagged);
        if (flags.json) {
          process.stdout.write(`${JSON.stringify(entries.map((e) => ({ server: e.server, kind: e.kind, name: e.name, flagged: e.scan.flagged, risk: e.scan.risk ?? null, findings: e.scan.findings })), null, 2)}\n`);
        } else {
          for (const e of entries) {
            if (!flags.all && e.scan.findings.length === 0) continue;
            const head = `${e.scan.flagged ? 'FLAGGED' : e.scan.risk ? `note (${e.scan.risk})` : 'clean'}  ${e.server} ${e.kind} ${e.name}`;
            process.stdout.write(`${head}\n${e.scan.findings.map((f) => `    ${f.severity} ${f.rule} in ${f.where}: ${f.evidence}\n`).join('')}`);
          }
          const perServer = connected.offers.map((o) => `${o.name} ${flagged.filter((e) => e.server === o.name).length}/${entries.filter((e) => e.server === o.name).length}`);
          process.stdout.write(`${flagged.length} of ${entries.length} definitions flagged (${perServer.join(', ')})\n`);
        }
        if (flagged.length > 0) process.exitCode = 1;
      } finally {
        await connected.close();
      }
    });
}
