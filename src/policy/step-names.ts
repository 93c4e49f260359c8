/**
 * The pipeline's steps, in order: reading these lists top to bottom tells the whole security model. Every
 * checked request runs through one of them (src/policy/chokepoint.ts); every decision names the step that
 * made it, and the `Step` type is derived from the lists, so a step cannot be named that does not run.
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
 * resources/read and prompts/get: the lighter checks — identity, pause, rate limit, the role's resource rules
 * (URI globs) and, for `file:` URIs, its path rules — then filters, label, record.
 */
export const READ_STEPS = ['authenticate', 'pause', 'rate-limit', 'resolve', 'resource-rule', 'paths', 'execute', 'content-filter', 'label', 'record'] as const;

export type ToolStep = (typeof TOOL_STEPS)[number];
export type ReadStep = (typeof READ_STEPS)[number];
export type Step = ToolStep | ReadStep;

/** The steps that run before execute, as the runner walks them. */
export type PreStep = Exclude<ToolStep, 'execute' | 'content-filter' | 'post-hook' | 'label' | 'record'>;
