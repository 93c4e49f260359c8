import type { Command } from 'commander';
import type { DefinitionDiff, DefinitionView } from '../gateway/definition-desk.js';
import { forTerminal as t, printableJson } from '../policy/printable.js';
import { adminRequest, withCommon, type Common } from './admin-client.js';
import { loadOrExit } from './load-config.js';

interface Narrow extends Common {
  server?: string;
  kind?: string;
}

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
        for (const f of connected.failures) process.stderr.write(`sluice definitions: server ${t(f.name)}: ${t(f.reason)}\n`);
        if (connected.offers.length === 0) {
          process.stderr.write('sluice definitions: no server could be reached\n');
          process.exitCode = 2;
          return;
        }
        const entries = scanServers(connected.offers.map((o) => ({ server: o.name, tools: o.tools, prompts: o.prompts, resources: o.resources, resourceTemplates: o.templates, instructions: o.instructions })));
        const flagged = entries.filter((e) => e.scan.flagged);
        if (flags.json) {
          process.stdout.write(`${printableJson(entries.map((e) => ({ server: e.server, kind: e.kind, name: e.name, flagged: e.scan.flagged, risk: e.scan.risk ?? null, findings: e.scan.findings })), 2)}\n`);
        } else {
          for (const e of entries) {
            if (!flags.all && e.scan.findings.length === 0) continue;
            const head = `${e.scan.flagged ? 'FLAGGED' : e.scan.risk ? `note (${e.scan.risk})` : 'clean'}  ${t(e.server)} ${e.kind} ${t(e.name)}`;
            process.stdout.write(`${head}\n${e.scan.findings.map((f) => `    ${finding(f)}\n`).join('')}`);
          }
          const perServer = connected.offers.map((o) => `${t(o.name)} ${flagged.filter((e) => e.server === o.name).length}/${entries.filter((e) => e.server === o.name).length}`);
          process.stdout.write(`${flagged.length} of ${entries.length} definitions flagged (${perServer.join(', ')})\n`);
        }
        if (flagged.length > 0) process.exitCode = 1;
      } finally {
        await connected.close();
      }
    });

  registerQueueCommands(definitions);
}

const withNarrow = (cmd: Command) =>
  withCommon(cmd).option('--server <name>', 'only definitions of this server').option('--kind <kind>', 'tool | prompt | resource | resource-template | instructions');

/**
 * `sluice definitions list | diff | approve | reject`: the quarantine queue of a running gateway, through its admin
 * API. A definition is named as a client sees it (`rug__add`) or by the server's own name; --server and --kind
 * narrow an ambiguous one.
 */
function registerQueueCommands(definitions: Command): void {
  withCommon(definitions.command('list').description('every pinned definition of the running gateway, the quarantine queue first'))
    .option('--quarantined', 'only what waits for a decision')
    .option('--json', 'as JSON')
    .action(async (opts: Common & { quarantined?: boolean; json?: boolean }) => {
      const { definitions: all } = (await adminRequest(loadOrExit(opts.config), opts, 'GET', '/admin/definitions')) as { definitions: DefinitionView[] };
      const shown = opts.quarantined ? all.filter((d) => d.status === 'quarantined' && !d.removedAt) : all;
      if (opts.json) return void process.stdout.write(`${printableJson(shown, 2)}\n`);
      if (shown.length === 0) return void process.stdout.write(opts.quarantined ? 'nothing is quarantined\n' : 'no definitions pinned yet\n');
      for (const d of shown) {
        const findings = d.findings.filter((f) => f.severity !== 'low').map((f) => f.rule);
        process.stdout.write(`${t(d.status).padEnd(11)}  ${t(d.server)}  ${t(d.kind)}  ${t(d.shownAs)}${findings.length ? `  [${[...new Set(findings)].map((r) => t(r)).join(', ')}]` : ''}${d.removedAt ? `  (no longer offered since ${t(d.removedAt)})` : ''}\n`);
      }
      const waiting = all.filter((d) => d.status === 'quarantined' && !d.removedAt).length;
      process.stdout.write(`${all.length} definitions, ${waiting} quarantined\n`);
    });

  withNarrow(definitions.command('diff').argument('<name>', 'as a client sees it (rug__add), or the server\'s own name or URI').description('what changed since the definition was last trusted, findings marked')).action(
    async (name: string, opts: Narrow) => {
      const d = (await adminRequest(loadOrExit(opts.config), opts, 'GET', `/admin/definitions/diff?${new URLSearchParams({ name, ...(opts.server ? { server: opts.server } : {}), ...(opts.kind ? { kind: opts.kind } : {}) })}`)) as DefinitionDiff;
      process.stdout.write(`${t(d.kind)} ${t(d.shownAs)}${d.shownAs === d.name ? '' : ` (${t(d.name)})`} of server "${t(d.server)}": ${t(d.status)}\n`);
      process.stdout.write(`pin ${t(d.hash)}${d.trustedHash ? `\ntrusted ${t(d.trustedHash)}` : '\nnever trusted: every line is new'}\n`);
      for (const f of d.findings) process.stdout.write(`  ${finding(f)}\n`);
      process.stdout.write(`--- ${d.trustedHash ? 'trusted' : '(nothing trusted)'}\n+++ offered now\n`);
      for (const line of d.lines) process.stdout.write(`${t(line.op)}${t(line.text)}${line.flagged ? '   <-- finding' : ''}\n`);
    },
  );

  const decide = (decision: 'approve' | 'reject') => async (name: string, opts: Narrow & { hash?: string }) => {
    const d = (await adminRequest(loadOrExit(opts.config), opts, 'POST', '/admin/definitions/decide', { name, server: opts.server, kind: opts.kind, hash: opts.hash, decision })) as DefinitionView;
    process.stdout.write(`${t(d.kind)} ${t(d.shownAs)} of server "${t(d.server)}": ${t(d.status)} (pin ${t(d.hash.slice(0, 16))})\n`);
  };
  withNarrow(definitions.command('approve').argument('<name>').description('trust the definition as last seen: it is shown and callable again'))
    .option('--hash <pin>', 'only if the definition is still this pin (from `diff`)')
    .action(decide('approve'));
  withNarrow(definitions.command('reject').argument('<name>').description('keep the definition as last seen hidden and refused'))
    .option('--hash <pin>', 'only if the definition is still this pin (from `diff`)')
    .action(decide('reject'));
}

/** A scanner finding as a line: its evidence is the definition's own text, from the server. */
function finding(f: { severity: string; rule: string; where: string; evidence: string }): string {
  return `${t(f.severity)} ${t(f.rule)} in ${t(f.where)}: ${t(f.evidence)}`;
}
