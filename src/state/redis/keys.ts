import type { SwitchName } from '../ports.js';

/** Every key and channel name, under the configured prefix. */
export class Keys {
  constructor(readonly prefix: string) {}
  readonly sessionLabels = () => `${this.prefix}labels:sessions`;
  readonly marks = () => `${this.prefix}labels:marks`;
  readonly bucket = (key: string) => `${this.prefix}bucket:${key}`;
  readonly switch = (name: SwitchName) => `${this.prefix}switch:${name}`;
  readonly approval = (id: string) => `${this.prefix}approval:${id}`;
  readonly verdict = (id: string) => `${this.prefix}approval:${id}:verdict`;
  readonly pending = () => `${this.prefix}approvals:pending`;
  readonly pins = () => `${this.prefix}pins`;
  readonly sessionApprovals = (session: string) => `${this.prefix}approvals:session:${session}`;
  // Agent and tool names are joined as JSON, so no choice of names can make two pairs share a key.
  readonly grants = (agent: string, tool: string) => `${this.prefix}grants:${JSON.stringify([agent, tool])}`;
  readonly sessionGrants = (session: string) => `${this.prefix}grants:session:${session}`;
  readonly record = (kind: string, key: string) => `${this.prefix}record:${kind}:${key}`;
  readonly tokens = () => `${this.prefix}tokens`;
  readonly replica = (id: string) => `${this.prefix}replica:${id}`;
  readonly channel = (name: string) => `${this.prefix}channel:${name}`;
}
