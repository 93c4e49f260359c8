import pino, { type Logger } from 'pino';
import pretty from 'pino-pretty';

export type { Logger };

/**
 * Logs always go to stderr: in `--stdio` mode stdout belongs to the MCP protocol. Structured JSON by default;
 * readable lines when a person is watching (stderr is a terminal).
 */
export function createLogger(level: string, options: { pretty?: boolean } = {}): Logger {
  const human = options.pretty ?? process.stderr.isTTY === true;
  if (human) {
    return pino({ level }, pretty({ destination: 2, sync: true, colorize: true, ignore: 'pid,hostname', translateTime: 'HH:MM:ss.l' }));
  }
  return pino({ level, base: undefined }, pino.destination({ dest: 2, sync: false }));
}

/** A logger that drops everything, for library use and tests that do not care. */
export const silentLogger: Logger = pino({ level: 'silent' });
