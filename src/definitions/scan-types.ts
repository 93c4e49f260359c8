/** What the definition scanner reads and what it reports: the types its engine, its rules and its callers share. */

export type Severity = 'high' | 'medium' | 'low';

export interface DefinitionFinding {
  rule: FindingRule;
  severity: Severity;
  /** Where in the definition: `description`, `inputSchema.properties.path.description`, … */
  where: string;
  /** What matched, shortened, with invisible characters shown as code points. */
  evidence: string;
}

export type FindingRule =
  | 'hidden-unicode'
  | 'instructions-to-model'
  | 'secrecy'
  | 'impersonation'
  | 'sensitive-file'
  | 'exfiltration'
  | 'encoded-payload'
  | 'shadowing'
  | 'same-name'
  | 'embedded-secret'
  | 'capability-mismatch'
  | 'suspicious-parameter';

/** What a client sees of one tool (prompts and resources use name, title and description). */
export interface ScannedDefinition {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: unknown;
  outputSchema?: unknown;
  annotations?: { readOnlyHint?: boolean; destructiveHint?: boolean; openWorldHint?: boolean; [key: string]: unknown };
}

/** A tool another server offers the same client: what shadowing steers. */
export interface PeerTool {
  server: string;
  name: string;
  description?: string;
}

export interface DefinitionScan {
  findings: DefinitionFinding[];
  /** The highest severity found, or undefined when nothing was. */
  risk?: Severity;
  /** Worth holding back: one high finding, or two medium ones. */
  flagged: boolean;
}

/** Where in the definition a position of the text being scanned lies. */
export type WhereAt = (index: number) => string;

/** The prose rules over one text: what hidden and decoded text is scanned with, as the description is. */
export type ProseScan = (text: string, whereAt: WhereAt) => DefinitionFinding[];
