import type { AuditFigure } from './audit.js';
import type { AuthFigure } from './oauth.js';
import { catalogTable, type CatalogTokens } from './catalog-tokens.js';
import type { AimResult } from './report.js';
import { startupTable, type StartupFigure } from './startup.js';

/** A stdio client's first answer: within 300 ms of spawning sluice. */
export function startupAims(figures: StartupFigure[]): AimResult[] {
  const first = figures[0];
  return first ? [{ text: `stdio spawn → first answer ≤ 300 ms (median ${first.medianMs.toFixed(0)} ms over ${first.runs} runs)`, met: first.medianMs <= 300 }] : [];
}

/** The audit log's aim: records/s with hashing and group commit, on SQLite. */
export function auditAims(figures: AuditFigure[]): AimResult[] {
  const batched = figures.find((f) => f.mode === 'batched' && f.synchronous === 'normal');
  const text = 'audit log ≥ 20,000 records/s with hashing and group commit (SQLite, WAL, synchronous=normal)';
  return [batched ? { text: `${text} (${Math.round(batched.perSecond).toLocaleString('en-US')}/s)`, met: batched.perSecond >= 20_000 } : { text, met: undefined }];
}

export function auditTable(figures: AuditFigure[]): string {
  return [
    '| writes | synchronous | records | records/s |',
    '| :--- | :--- | ---: | ---: |',
    ...figures.map((f) => `| ${f.mode} | ${f.synchronous} | ${f.records.toLocaleString('en-US')} | ${Math.round(f.perSecond).toLocaleString('en-US')} |`),
  ].join('\n');
}

/** The catalog's aims: ≤ 15 tokens per resource under the budget, a constant size above it, ≥ 99% fewer at 1,000. */
export function catalogAims(rows: CatalogTokens[]): AimResult[] {
  const generated = rows.filter((r) => r.server.startsWith('generated'));
  const under = generated.filter((r) => !r.summarised);
  const over = generated.filter((r) => r.summarised);
  const thousand = generated.find((r) => r.resources === 1000);
  return [
    { text: `catalog ≤ 15 tokens per resource while under the budget (${under.map((r) => `${r.resources}: ${r.perResource.toFixed(1)}`).join(', ')})`, met: under.length > 0 && under.every((r) => r.perResource <= 15) },
    { text: `catalog of constant size above the budget (${over.map((r) => `${r.resources}: ${r.catalog}`).join(', ')} tokens)`, met: over.length > 1 && over.every((r) => Math.abs(r.catalog - over[0].catalog) <= 5) },
    thousand
      ? { text: `catalog ≥ 99% fewer tokens than the naive prompt at 1,000 resources (${(thousand.saving * 100).toFixed(2)}%)`, met: thousand.saving >= 0.99 }
      : { text: 'catalog ≥ 99% fewer tokens at 1,000 resources', met: undefined },
  ];
}

/** OAuth's aim: a token verified before costs ≤ 20 µs per request. */
export function authAims(figures: AuthFigure[]): AimResult[] {
  const cached = figures.find((f) => f.what.includes('cached'));
  return cached ? [{ text: `OAuth: a verified token, seen again, ≤ 20 µs per request (${cached.usPerCall.toFixed(1)} µs)`, met: cached.usPerCall <= 20 }] : [];
}

export function extraSections(audit: AuditFigure[] | undefined, catalog: CatalogTokens[] | undefined, startup?: StartupFigure[], auth?: AuthFigure[]): string {
  const parts: string[] = [];
  if (auth) {
    parts.push(`### Authentication per request (\`bench/oauth.ts\`, in process)

| token | requests | µs per request |
| :--- | ---: | ---: |
${auth.map((f) => `| ${f.what} | ${f.calls.toLocaleString('en-US')} | ${f.usPerCall.toFixed(1)} |`).join('\n')}

From the \`Authorization\` header to a principal. The OAuth tokens come from a real authorization server
(oidc-provider on loopback, RS256); a token seen before is found in the verified-token cache by its hash; a token
seen for the first time is verified against the JWKS (already fetched).`);
  }
  if (startup) {
    parts.push(`### Start-up (\`bench/startup.ts\`)

${startupTable(startup)}

The built CLI (\`dist/\`, what \`npm start\` runs, rebuilt by the bench first) spawned as \`sluice serve --stdio --no-http\`
in front of server-everything, timed from spawn to the initialize answer: sluice answers before its upstreams are
up. \`sluice --version\` loads no command module.`);
  }
  if (audit) {
    parts.push(`### Audit log write rate (in process)

${auditTable(audit)}

\`bench/audit.ts\`: records as the gateway writes them for an allowed tools/call (arguments and result summarised,
capped at the default 1 KiB, hashed), sealed into the hash chain and committed to SQLite in WAL mode. **batched**: 256
writers in flight, as under load — group commit puts everything queued in one turn of the event loop into one
transaction; **one at a time**: a single sequential writer, one transaction per record. \`synchronous=full\` also
fsyncs every commit (power-loss durability); \`normal\`, the default, survives the process being killed.`);
  }
  if (catalog) {
    parts.push(`### Agent system prompt: naive versus catalog (o200k tokens)

${catalogTable(catalog)}

\`bench/catalog-tokens.ts\`: **naive** is the prompt many integrations build, every resource's content pasted under a
heading; **catalog** is what \`sluice agent\` puts in its system prompt (URI, name, description, type and size when
the URI does not already say it; templates; prompts), and past the 1,500-token budget a per-server summary plus the
\`search_catalog\` tool. **tokens per resource** counts a resource's own catalog line (the fixed header is paid once).
Counted with gpt-tokenizer's o200k_base encoding. Generated resources are 2 KB of English-like text each.`);
  }
  return parts.join('\n\n');
}
