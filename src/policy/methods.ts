import { ANSWER_STEPS, PROMPT_STEPS, READ_STEPS, SUBSCRIBE_STEPS, TOOL_STEPS, UPSTREAM_CONTENT_STEPS, UPSTREAM_REQUEST_STEPS, type Step, type StepList } from './step-names.js';

/**
 * What sluice does with one kind of message:
 * - `checked`: runs the pipeline `steps` (src/policy/chokepoint.ts), one audit record each;
 * - `listed`: answered from the merged catalog, with only what the caller's role may see (`visibility`);
 * - `local`: answered or acted on by sluice itself, nothing reaches an upstream's content;
 * - `routed`: a control message (a cancellation, an answer) delivered to the exchange it names;
 * - `relayed`: content from an upstream, passed on to the client it is for after `steps`;
 * - `refused` (requests: "method not found") and `dropped` (notifications, counted): sluice does not carry it.
 */
export type Handling = 'checked' | 'listed' | 'local' | 'routed' | 'relayed' | 'refused' | 'dropped';

/** A step a message passes: the pipeline's, or `visibility` (a list filtered to what the caller's role may see). */
export type MessageStep = Step | 'visibility';

export interface MessagePolicy {
  handling: Handling;
  /** The steps it passes, in order; for `checked`, exactly the list the pipeline runs. */
  steps: readonly MessageStep[];
  /** For a request from an upstream: what the client's answer passes on its way back to that upstream. */
  answer?: readonly MessageStep[];
  /** Why, in a sentence (docs/security.md's table says the same). */
  note: string;
}

const checked = (steps: StepList, note: string): MessagePolicy => ({ handling: 'checked', steps, note });
const listed = (note: string): MessagePolicy => ({ handling: 'listed', steps: ['authenticate', 'visibility'], note });
const local = (note: string, steps: readonly MessageStep[] = []): MessagePolicy => ({ handling: 'local', steps, note });
const routed = (note: string): MessagePolicy => ({ handling: 'routed', steps: [], note });
const refused = (note: string): MessagePolicy => ({ handling: 'refused', steps: [], note });
const dropped = (note: string): MessagePolicy => ({ handling: 'dropped', steps: [], note });

const NO_TASKS = 'sluice offers no tasks capability; task requests are refused and task notifications dropped';

/** Requests a client sends to sluice. */
export const CLIENT_REQUESTS: ReadonlyMap<string, MessagePolicy> = new Map([
  ['initialize', local('negotiation: opens a legacy session (its own per-session servers start)')],
  ['ping', local('answered by sluice')],
  ['server/discover', local('negotiation of the stateless revision: what sluice offers')],
  ['logging/setLevel', local('the session\'s log level; each upstream is told the most verbose level any of its sessions wants', ['authenticate'])],
  ['tools/list', listed('tools the role does not deny (reads only, for a read-only role); held-back definitions are not listed')],
  ['prompts/list', listed('prompts of the merged catalog, to a caller with a role')],
  ['resources/list', listed('resources the role\'s resource rules let it read')],
  ['resources/templates/list', listed('templates of the merged catalog, to a caller with a role')],
  ['tools/call', checked(TOOL_STEPS, 'the full pipeline')],
  ['resources/read', checked(READ_STEPS, 'resource and path rules on the URI as forwarded; URL rules and information flow on a URI that reaches out')],
  ['prompts/get', checked(PROMPT_STEPS, 'its arguments are outgoing data: URL rules and information flow, then filters and label')],
  ['completion/complete', checked(PROMPT_STEPS, 'the argument typed so far is outgoing data, like a prompt\'s arguments')],
  ['resources/subscribe', checked(SUBSCRIBE_STEPS, 'the checks of a read of that URI')],
  ['resources/unsubscribe', local('ends the session\'s own subscription', ['authenticate'])],
  ['subscriptions/listen', local('stateless stream of list changes; each resource it asks for is checked as resources/subscribe', ['authenticate'])],
  ['tasks/get', refused(NO_TASKS)],
  ['tasks/list', refused(NO_TASKS)],
  ['tasks/cancel', refused(NO_TASKS)],
  ['tasks/result', refused(NO_TASKS)],
]);

/** Notifications a client sends to sluice. */
export const CLIENT_NOTIFICATIONS: ReadonlyMap<string, MessagePolicy> = new Map([
  ['notifications/initialized', local('the client finished negotiating')],
  ['notifications/cancelled', routed('aborts the named request of this client (and the upstream call it made)')],
  ['notifications/roots/list_changed', routed('to the session\'s own per-session servers only; shared servers never see a client\'s roots')],
  ['notifications/progress', dropped('sluice sends clients no request that asks for progress')],
  ['notifications/tasks/status', dropped(NO_TASKS)],
]);

/** Requests an upstream sends to sluice (as its client); answered by the client whose call caused them. */
export const UPSTREAM_REQUESTS: ReadonlyMap<string, MessagePolicy> = new Map<string, MessagePolicy>([
  ['ping', local('answered by sluice')],
  ['sampling/createMessage', { handling: 'relayed', steps: UPSTREAM_REQUEST_STEPS, answer: ANSWER_STEPS, note: 'the messages are content from the server; the model\'s answer is data going to it' }],
  ['elicitation/create', { handling: 'relayed', steps: UPSTREAM_REQUEST_STEPS, answer: ANSWER_STEPS, note: 'the question is content from the server; the user\'s answer is data going to it' }],
  ['roots/list', { handling: 'relayed', steps: ['authenticate'], answer: ANSWER_STEPS, note: 'per-session servers only (shared ones are never offered roots); the folders are data going to the server' }],
  ['tasks/get', refused(NO_TASKS)],
  ['tasks/list', refused(NO_TASKS)],
  ['tasks/cancel', refused(NO_TASKS)],
  ['tasks/result', refused(NO_TASKS)],
]);

/** Notifications an upstream sends to sluice. */
export const UPSTREAM_NOTIFICATIONS: ReadonlyMap<string, MessagePolicy> = new Map<string, MessagePolicy>([
  ['notifications/progress', { handling: 'relayed', steps: UPSTREAM_CONTENT_STEPS, note: 'to the call that asked for progress; its message is content' }],
  ['notifications/message', { handling: 'relayed', steps: UPSTREAM_CONTENT_STEPS, note: 'a log line, to the one session whose call is running (or, with none, every session that asked for logs)' }],
  ['notifications/resources/updated', { handling: 'relayed', steps: ['content-filter'], note: 'to the sessions subscribed to that URI' }],
  ['notifications/tools/list_changed', local('the list is read again, reviewed by the definition guard, and clients told if the merged list changed')],
  ['notifications/prompts/list_changed', local('as tools/list_changed')],
  ['notifications/resources/list_changed', local('as tools/list_changed')],
  ['notifications/cancelled', routed('the server gave up on a request it sent a client: the client is told')],
  ['notifications/subscriptions/acknowledged', dropped('sluice speaks the legacy revisions to upstreams, which have no listen streams')],
  ['notifications/elicitation/complete', dropped('sluice relays no URL-mode elicitation')],
  ['notifications/tasks/status', dropped(NO_TASKS)],
]);

/** The pipeline a checked client request runs; undefined for any other message. */
export function pipelineOf(method: string): StepList | undefined {
  const policy = CLIENT_REQUESTS.get(method);
  return policy?.handling === 'checked' ? (policy.steps as StepList) : undefined;
}

/** The methods whose requests run the pipeline, as the chokepoint's types name them. */
export type CheckedMethod = 'tools/call' | 'resources/read' | 'prompts/get' | 'completion/complete' | 'resources/subscribe';
