import { lifecycle } from '../lifecycle.js';
import type { Logger } from '../log.js';
import type { DecisionEvent, Recorder } from '../policy/decision.js';
import { recordOf } from './from-decision.js';
import type { AuditLog } from './log.js';

/**
 * The policy's Recorder, made of the audit log: every decision is logged as one line and, with the audit
 * log on, appended to the chain — `record` resolves once it is committed. Arguments and results go to the
 * audit log only (redacted and capped there), never to the process log. Each decision is published on
 * `lifecycle.decision` too, named for its gateway (telemetry and the console's charts listen there).
 */
export class AuditRecorder implements Recorder {
  constructor(
    private readonly audit: AuditLog | undefined,
    private readonly log: Logger,
    private readonly maxFieldBytes: number,
    /** The gateway whose decisions these are: what its `lifecycle.decision` events carry. */
    private readonly gateway: string,
  ) {}

  async record(event: DecisionEvent, options: { droppable?: boolean } = {}): Promise<number | undefined> {
    if (this.log.isLevelEnabled('info')) {
      const { arguments: _a, result: _r, ...line } = event;
      this.log.info({ decision: line }, `${event.method} ${event.target}: ${event.outcome}${event.reason ? ` (${event.reason})` : ''}`);
    }
    if (lifecycle.decision.active) lifecycle.decision.publish({ gateway: this.gateway, decision: event });
    if (!this.audit) return undefined;
    return (await this.audit.write(recordOf(event, this.maxFieldBytes), options))?.seq;
  }

  accepting(): boolean {
    return !this.audit?.backedUp;
  }
}
