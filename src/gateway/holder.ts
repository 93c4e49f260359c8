import type { Security } from '../policy/security.js';
import type { LabelHolder } from '../state/ports.js';
import type { ClientSession } from './session.js';

/** Who a session is for the label store: a stateless request is its identity, a session is itself. */
export function labelHolder(security: Security, session: ClientSession): LabelHolder {
  const isolated = security.role(session.principal)?.isolateSessions === true;
  return { id: session.id, agent: session.principal?.agent ?? '(none)', stateless: session.stateless, isolated };
}
