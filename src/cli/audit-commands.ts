import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import type { AuditRecord } from '../audit/chain.js';
import type { AuditQuery, AuditStore } from '../audit/store.js';
import { auditStoreFor } from '../gateway/stores.js';
import { verifyStore } from '../audit/verify.js';
import { forTerminal, printableJson } from '../policy/printable.js';
import { loadOrExit } from './load-config.js';

interface Filters {
  config?: string;
  agent?: string;
  tool?: string;
  outcome?: string;
  since?: string;
  until?: string;
}

const withFilters = (cmd: Command) =>
  cmd
    .option('-c, --config <file>', 'config file (for the audit file)')
    .option('--agent <name>', 'only this agent')
    .option('--tool <name>', 'only this target (tool, URI or prompt; * matches anything)')
    .option('--outcome <outcome>', 'only this outcome (allow, deny, approve, error, requested, granted, denied, expired)')
    .option('--since <time>', 'from this ISO time')
    .option('--until <time>', 'up to this ISO time');

/** The store the config names; exits 1 with the reason when it cannot be opened (a database not reachable). */
async function open(opts: { config?: string }): Promise<AuditStore> {
  const config = loadOrExit(opts.config);
  try {
    return await auditStoreFor(config);
  } catch (err) {
    process.stderr.write(`sluice: ${forTerminal((err as Error).message, true)}\n`);
    process.exit(1);
  }
}

function query(opts: Filters): AuditQuery {
  return { agent: opts.agent, target: opts.tool, outcome: opts.outcome, since: opts.since, until: opts.until };
}

/** One record as a line. Every field may hold what a client, an upstream or a token brought: all are escaped. */
function line(r: AuditRecord): string {
  const t = forTerminal;
  const why = r.reason ? `  ${t(r.step ?? '')}${r.rule ? ` [${t(r.rule)}]` : ''}: ${t(r.reason)}` : '';
  return `${r.seq}  ${t(r.time)}  ${t(r.agent)}  ${t(r.method)} ${t(r.target)}  ${t(r.outcome)}${why}`;
}

/** `sluice audit verify | tail | export`: reading the log straight from its file or database, gateway running or not. */
export function registerAuditCommands(program: Command): void {
  const audit = program.command('audit').description('the tamper-evident audit log');
  audit
    .command('verify')
    .option('-c, --config <file>', 'config file (for the audit file)')
    .option('--key <file>', 'the public key (PEM) to check signed chain heads against')
    .option('--strict', 'with --key: also fail when records follow the last signed head (for scheduled checks)')
    .description('check every record and, with --key, every signed head; exit 1 at the first broken record')
    .action(async (opts: { config?: string; key?: string; strict?: boolean }) => {
      const store = await open(opts);
      const key = opts.key ? readFileSync(opts.key, 'utf8') : undefined;
      const result = await verifyStore(store, key);
      await store.close();
      if (result.ok) {
        const from = result.anchorSeq > 0 ? ` (from the anchor after record ${result.anchorSeq})` : '';
        const tail = result.unsignedTail ?? 0;
        // Records after the last signed head are vouched for by the chain only, which anyone with write access
        // can extend: always said, and with --strict a failure.
        const unsigned = key ? `; ${tail} record${tail === 1 ? '' : 's'} after the last signed head${result.lastSignedSeq ? ` (record ${result.lastSignedSeq})` : ' (none is signed)'}` : '';
        const failed = opts.strict === true && key !== undefined && tail > 0;
        process.stdout.write(`${failed ? 'UNSIGNED' : 'OK'}: ${result.checked} records verified${from}${key ? `, ${result.signaturesChecked} signed heads valid` : ''}${unsigned}\n`);
        if (failed) process.exitCode = 1;
      } else {
        process.stdout.write(`BROKEN at record ${result.brokenAt}: ${result.reason} (${result.checked} records before it verified)\n`);
        process.exitCode = 1;
      }
    });
  withFilters(audit.command('tail').description('the latest records; -f to keep following'))
    .option('-n, --lines <n>', 'how many', '20')
    .option('-f, --follow', 'keep printing new records')
    .action(async (opts: Filters & { lines: string; follow?: boolean }) => {
      const store = await open(opts);
      const latest = (await store.query({ ...query(opts), newestFirst: true, limit: Number(opts.lines) })).reverse();
      for (const r of latest) process.stdout.write(`${line(r)}\n`);
      if (!opts.follow) return store.close();
      let last = latest.at(-1)?.seq ?? (await store.head()).seq;
      for (;;) {
        await new Promise((r) => setTimeout(r, 500));
        for (const r of await store.query({ ...query(opts), afterSeq: last, limit: 1000 })) {
          process.stdout.write(`${line(r)}\n`);
          last = r.seq;
        }
      }
    });
  withFilters(audit.command('export').description('records as JSON lines, oldest first'))
    .option('--format <format>', 'jsonl', 'jsonl')
    .action(async (opts: Filters & { format: string }) => {
      if (opts.format !== 'jsonl') {
        process.stderr.write(`sluice: unknown format "${opts.format}"; allowed: jsonl\n`);
        process.exitCode = 2;
        return;
      }
      const store = await open(opts);
      let after = (await store.anchor()).seq;
      for (;;) {
        const page = await store.query({ ...query(opts), afterSeq: after, limit: 5000 });
        for (const r of page) process.stdout.write(`${printableJson(r)}\n`);
        if (page.length < 5000) break;
        after = page[page.length - 1].seq;
      }
      await store.close();
    });
}
