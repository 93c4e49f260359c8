import type { Command } from 'commander';
import { openTokenStore } from '../gateway/open-state.js';
import { ADMIN } from '../identity/tokens.js';
import { forTerminal as t } from '../policy/printable.js';
import { adminRequest, withCommon, type Common } from './admin-client.js';
import { loadOrExit } from './load-config.js';

/** token, pause, resume and session commands: the operator's side of sluice. */
export function registerOperatorCommands(program: Command): void {
  const token = program.command('token').description('manage bearer tokens');
  token
    .command('create')
    .argument('[agent]', 'the agent (from the config) the token identifies')
    .option('-c, --config <file>', 'config file')
    .option('--admin', 'an operator token for the admin API instead of an agent token')
    .description('print a new token once; only its hash is stored')
    .action(async (agent: string | undefined, opts: { config?: string; admin?: boolean }) => {
      const config = loadOrExit(opts.config);
      const who = opts.admin ? ADMIN : agent;
      if (!who) return fail('name the agent, or pass --admin for an operator token');
      if (!opts.admin && !Object.hasOwn(config.security.agents, who)) {
        return fail(`no agent "${t(who)}" in the config; declared: ${Object.keys(config.security.agents).join(', ') || '(none)'}`);
      }
      const store = await openTokenStore(config);
      const created = await store.tokens.issue(who).finally(() => store.close());
      process.stdout.write(`${created.token}\n`);
      process.stderr.write(`token ${t(created.id)} for ${opts.admin ? 'the operator' : `agent "${t(who)}"`} stored (hash only) in ${t(store.where)}; it is shown this once\n`);
    });
  token
    .command('list')
    .option('-c, --config <file>', 'config file')
    .description('list tokens (ids and agents, never the tokens)')
    .action(async (opts: { config?: string }) => {
      const store = await openTokenStore(loadOrExit(opts.config));
      for (const entry of await store.tokens.entries().finally(() => store.close())) process.stdout.write(`${t(entry.id)}  ${t(entry.agent)}  ${t(entry.createdAt)}\n`);
    });

  withCommon(program.command('pause').description('stop every tool call, resource read and prompt get until resumed')).action(async (opts: Common) => {
    await adminRequest(loadOrExit(opts.config), opts, 'POST', '/admin/pause');
    process.stdout.write('paused\n');
  });
  withCommon(program.command('resume').description('let calls through again after a pause')).action(async (opts: Common) => {
    await adminRequest(loadOrExit(opts.config), opts, 'POST', '/admin/resume');
    process.stdout.write('resumed\n');
  });

  const approvals = program.command('approvals').description('calls waiting for a human decision');
  withCommon(approvals.command('list').description('pending approvals, each with its whole arguments (the tool\'s required ones first)')).action(async (opts: Common) => {
    const { pending } = (await adminRequest(loadOrExit(opts.config), opts, 'GET', '/admin/approvals')) as { pending: { id: string; agent: string; tool: string; label: string; reason: string; argumentsText: string; expiresAt: string }[] };
    if (pending.length === 0) process.stdout.write('no pending approvals\n');
    for (const p of pending) {
      const head = [p.id, p.agent, p.tool, p.label].map((field) => t(field)).join('  ');
      // Every argument, whole: what is approved is what runs (argumentsText is already made printable).
      process.stdout.write(`${head}  (${t(p.reason)}; expires ${t(p.expiresAt)})\n${t(p.argumentsText, true).replace(/^/gm, '    ')}\n`);
    }
  });
  const decide = (decision: 'approve' | 'deny') => async (id: string, opts: Common & { scope?: string; pinArguments?: boolean; expires?: string; untilRestart?: boolean; reason?: string }) => {
    const verdict = (await adminRequest(loadOrExit(opts.config), opts, 'POST', '/admin/approvals/decide', {
      id,
      decision,
      scope: opts.scope ?? 'once',
      pinArguments: opts.pinArguments === true,
      expiresInSeconds: opts.expires ? Number(opts.expires) : undefined,
      untilRestart: opts.untilRestart === true,
      reason: opts.reason,
    })) as { outcome: string };
    process.stdout.write(`${t(id)}: ${t(verdict.outcome)}\n`);
  };
  withCommon(approvals.command('approve').argument('<id>').description('let the call run'))
    .option('--scope <scope>', 'once | session (this session) | always (this agent and tool)', 'once')
    .option('--pin-arguments', 'the grant covers only calls with exactly these arguments')
    .option('--expires <seconds>', 'how long a session/always grant lasts')
    .option('--until-restart', 'a session/always grant also ends when the gateway process stops')
    .action(decide('approve'));
  withCommon(approvals.command('deny').argument('<id>').description('refuse the call'))
    .option('--reason <text>', 'told to the client')
    .action(decide('deny'));

  withCommon(program.command('status').description('the pause switch and each upstream: its state and, when down, why')).action(async (opts: Common) => {
    const status = (await adminRequest(loadOrExit(opts.config), opts, 'GET', '/admin/status')) as StatusView;
    process.stdout.write(`paused: ${status.paused}\n`);
    for (const u of status.upstreams) process.stdout.write(upstreamLine(u));
  });

  const session = program.command('session').description('look at sessions and their labels');
  withCommon(session.command('list').description('sessions, their agents and labels')).action(async (opts: Common) => {
    const status = (await adminRequest(loadOrExit(opts.config), opts, 'GET', '/admin/status')) as { paused: boolean; sessions: { id: string; agent: string; transport: string; label: string }[] };
    process.stdout.write(`paused: ${status.paused}\n`);
    for (const s of status.sessions) process.stdout.write(`${t(s.id)}  ${t(s.agent)}  ${t(s.transport)}  ${t(s.label)}\n`);
  });
  withCommon(session.command('reset').description('lower a label back to trusted/public (recorded)'))
    .option('--session <id>', 'one session')
    .option('--agent <name>', 'an agent: its mark and all its sessions')
    .action(async (opts: Common & { session?: string; agent?: string }) => {
      if (!opts.session && !opts.agent) return fail('pass --session ID or --agent NAME');
      const done = (await adminRequest(loadOrExit(opts.config), opts, 'POST', '/admin/sessions/reset', { session: opts.session, agent: opts.agent })) as { reset: string[] };
      process.stdout.write(`reset: ${opts.agent ? `agent ${t(opts.agent)}` : ''}${done.reset.length ? ` sessions ${done.reset.map((id) => t(id)).join(', ')}` : ''}\n`);
    });
}

interface UpstreamView {
  name: string;
  state?: string;
  mode?: string;
  tools?: number;
  sessions?: number;
  reason?: string;
  lastError?: string;
  retryInMs?: number;
}
interface StatusView {
  paused: boolean;
  upstreams: UpstreamView[];
}

/** One upstream for `sluice status`: name, state, and for one that is down why (the error redacted by the gateway). */
function upstreamLine(u: UpstreamView): string {
  if (u.mode === 'per-session') return `${t(u.name)}  per-session  ${u.sessions ?? 0} running\n`;
  const retry = u.retryInMs !== undefined ? `  (retry in ${Math.ceil(u.retryInMs / 1000)} s)` : '';
  const why = u.lastError ?? u.reason;
  return `${t(u.name)}  ${t(u.state ?? '?')}  ${u.tools ?? 0} tools${retry}\n${why ? `    ${t(why)}\n` : ''}`;
}

function fail(message: string): void {
  process.stderr.write(`sluice: ${message}\n`);
  process.exitCode = 2;
}
