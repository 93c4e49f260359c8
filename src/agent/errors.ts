import { APICallError, RetryError } from 'ai';

/**
 * One line for each way the agent's outside world fails — the model server, an MCP server, a gateway — so a
 * person reads what failed, where, and the last error, never a stack or a request body.
 */

/** The model could not answer: the server is down, refused, or kept failing. */
export class ModelError extends Error {
  constructor(
    message: string,
    readonly url?: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'ModelError';
  }
}

/** An error from the AI SDK (or fetch) as one line naming the model server's URL and the last error. */
export function modelError(err: unknown): ModelError {
  if (err instanceof ModelError) return err;
  let attempts = 1;
  let last = err;
  if (RetryError.isInstance(err)) {
    attempts = err.errors.length;
    last = err.lastError;
  }
  const tries = attempts > 1 ? ` (${attempts} attempts)` : '';
  if (APICallError.isInstance(last)) {
    const unreachable = last.statusCode === undefined;
    const why = unreachable ? networkReason(last.cause) ?? stripPrefix(last.message) : `HTTP ${last.statusCode}: ${oneLine(last.message)}`;
    const what = unreachable ? `cannot reach the model at ${last.url}` : `the model at ${last.url} failed`;
    return new ModelError(`${what}: ${why}${tries}`, last.url, last.statusCode);
  }
  return new ModelError(`the model failed: ${oneLine(errorMessage(last))}${tries}`);
}

/** Why a connection failed, from a fetch error's cause chain: "connection refused (ECONNREFUSED)". */
export function networkReason(err: unknown): string | undefined {
  for (let e = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && Object.hasOwn(NETWORK_CODES, code)) return `${NETWORK_CODES[code]} (${code})`;
  }
  return undefined;
}

const NETWORK_CODES: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
  UND_ERR_SOCKET: 'connection closed',
};

/** What went wrong connecting to one MCP server, for a person: the command or URL and the reason. */
export function serverStartError(server: { transport: string; command?: string; url?: string; displayName?: string }, err: unknown, timeoutMs: number): string {
  const code = (err as { code?: unknown }).code;
  const where = server.transport === 'stdio' ? `"${server.command}"` : server.displayName ? `${server.displayName} at ${server.url}` : server.url;
  if (code === REQUEST_TIMEOUT) return `${where} did not answer within ${timeoutMs / 1000} s`;
  if (server.transport === 'stdio') {
    if (code === 'ENOENT') return `cannot start "${server.command}": command not found`;
    if (code === 'EACCES') return `cannot start "${server.command}": not executable`;
    return `${where} stopped: ${oneLine(errorMessage(err))}`;
  }
  const status = httpStatus(err);
  if (status === 401 || status === 403) return `${where} refused the token (HTTP ${status})${bodyMessage(err)}`;
  if (status !== undefined) return `${where} answered HTTP ${status}${bodyMessage(err)}`;
  const network = networkReason(err);
  if (network) return `cannot reach ${where}: ${network}`;
  return `${where}: ${oneLine(errorMessage(err))}`;
}

/** The SDK's code for a request that got no answer in time. */
const REQUEST_TIMEOUT = 'REQUEST_TIMEOUT';

/** The HTTP status the SDK's HTTP transports attach to their errors (`data.status`). */
function httpStatus(err: unknown): number | undefined {
  const data = (err as { data?: unknown }).data;
  const status = data && typeof data === 'object' ? (data as { status?: unknown }).status : undefined;
  return typeof status === 'number' ? status : undefined;
}

/** The message inside a JSON-RPC error body, when the server sent one: ": unauthorized: wrong token". */
function bodyMessage(err: unknown): string {
  const data = (err as { data?: { text?: unknown } }).data;
  if (typeof data?.text !== 'string') return '';
  try {
    const message = (JSON.parse(data.text) as { error?: { message?: unknown } }).error?.message;
    return typeof message === 'string' ? `: ${oneLine(message)}` : '';
  } catch {
    return '';
  }
}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function stripPrefix(message: string): string {
  return oneLine(message.replace(/^Cannot connect to API:\s*/i, ''));
}

function oneLine(text: string, max = 300): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
