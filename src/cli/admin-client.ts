import type { Command } from 'commander';
import type { GatewayConfig } from '../config/schema.js';
import { forTerminal } from '../policy/printable.js';

/** What every command that talks to a running gateway takes. */
export interface Common {
  config?: string;
  url?: string;
  token?: string;
}

export const withCommon = (cmd: Command) =>
  cmd
    .option('-c, --config <file>', 'config file (for the address and the token file)')
    .option('--url <url>', 'the gateway, e.g. http://127.0.0.1:8808 (default: from the config)')
    .option('--token <token>', 'operator token (default: $SLUICE_ADMIN_TOKEN)');

/** Calls the running gateway's admin API with an operator token; exits with a clear message on failure. */
export async function adminRequest(config: GatewayConfig, opts: { url?: string; token?: string }, method: 'GET' | 'POST', path: string, body?: unknown): Promise<unknown> {
  const token = opts.token ?? process.env.SLUICE_ADMIN_TOKEN;
  if (!token) fail('an operator token is needed: pass --token or set SLUICE_ADMIN_TOKEN (create one with `sluice token create --admin`)');
  const host = config.listen.host.includes(':') ? `[${config.listen.host}]` : config.listen.host;
  const base = opts.url ?? `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${config.listen.port}`;
  let res: Response;
  try {
    res = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (err) {
    fail(`cannot reach the gateway at ${base}: ${(err as Error).message}`);
  }
  const data = (await res.json().catch(() => ({}))) as { error?: string };
  // The answer may name what a client or an upstream sent.
  if (!res.ok) fail(`${res.status}: ${forTerminal(data.error ?? res.statusText)}`);
  return data;
}

function fail(message: string): never {
  process.stderr.write(`sluice: ${message}\n`);
  process.exit(1);
}
