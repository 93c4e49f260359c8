/**
 * The pipeline's steps, in order: reading these lists top to bottom tells the whole security model. Every
 * checked request runs through one of them (src/policy/chokepoint.ts); every decision names the step that
 * made it, and the `Step` type is derived from the lists, so a step cannot be named that does not run. Which
 * message runs which list is the method table's to say (src/policy/methods.ts).
 */
export const TOOL_STEPS = [
  'authenticate',
  'pause',
  'rate-limit',
  'resolve',
  'tool-rule',
  'operation',
  'paths',
  'urls',
  'information-flow',
  'pre-hook',
  'execute',
  'path-filter',
  'content-filter',
  'post-hook',
  'label',
  'record',
] as const;

/**
 * resources/read: the lighter checks — identity, pause, rate limit, the role's resource rules (URI globs), for
 * `file:` URIs its path rules, for a URI that reaches a host its URL rules, and for a URI built from a
 * template of an open-world server information flow (the URI carries what was put into it) — then filters,
 * label, record.
 */
export const READ_STEPS = ['authenticate', 'pause', 'rate-limit', 'resolve', 'resource-rule', 'paths', 'urls', 'information-flow', 'execute', 'content-filter', 'label', 'record'] as const;

/**
 * prompts/get and completion/complete: their arguments are data going to the server, so URL rules and
 * information flow apply to them as to a tool's; what comes back is content like any other.
 */
export const PROMPT_STEPS = ['authenticate', 'pause', 'rate-limit', 'resolve', 'urls', 'information-flow', 'execute', 'content-filter', 'label', 'record'] as const;

/** resources/subscribe: the checks of a read, without content (updates carry none; a read after one is checked again). */
export const SUBSCRIBE_STEPS = ['authenticate', 'pause', 'rate-limit', 'resolve', 'resource-rule', 'paths', 'urls', 'information-flow', 'execute', 'record'] as const;

/**
 * Content an upstream sends on its own (log lines, progress messages, sampling and elicitation requests): the
 * filters of the session it goes to, and that session's label rises by what it saw. Requests are recorded.
 */
export const UPSTREAM_CONTENT_STEPS = ['content-filter', 'label'] as const;
export const UPSTREAM_REQUEST_STEPS = ['authenticate', 'pause', 'content-filter', 'label', 'record'] as const;

/** A client's answer to an upstream's request (sampling, elicitation, roots): data going to that upstream. */
export const ANSWER_STEPS = ['information-flow', 'record'] as const;

export type ToolStep = (typeof TOOL_STEPS)[number];
export type ReadStep = (typeof READ_STEPS)[number];
export type Step = ToolStep | ReadStep | (typeof PROMPT_STEPS)[number] | (typeof SUBSCRIBE_STEPS)[number];

/** The step lists a checked request can run (the runner walks one of these). */
export type StepList = typeof TOOL_STEPS | typeof READ_STEPS | typeof PROMPT_STEPS | typeof SUBSCRIBE_STEPS;
