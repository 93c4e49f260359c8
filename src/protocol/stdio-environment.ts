import { getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';

/**
 * The whole environment of a stdio server we spawn, gateway upstream and agent alike: the SDK's safe base
 * (PATH, HOME, USER, SHELL, TERM … on POSIX) plus what the server's config names. Nothing else of ours is
 * passed on, so the API keys and SLUICE_* settings of the process that spawns it stay out of every server
 * unless the config hands a server one explicitly.
 */
export function stdioEnvironment(server: { env: Record<string, string> }): Record<string, string> {
  return { ...getDefaultEnvironment(), ...server.env };
}
