import { DETECTORS } from '../filters/detectors.js';

/**
 * The definition scanner: what an MCP server tells the model about its tools, prompts and resources, read before
 * the model ever sees it, offline. A definition can attack on its own — hidden instructions, invisible text,
 * encoded payloads, references that steer other servers' tools, secrets, a read-only label on a tool that writes.
 * Each rule gives findings with a severity; policy decides what a risky definition gets.
 */

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

/**
 * Every server's tools by name, built once per discovery: each definition is then checked against the tools
 * of the other servers without comparing every pair.
 */
export class PeerIndex {
  private readonly byName = new Map<string, PeerTool[]>();
  /** Each server's tools: name → description. */
  private readonly byServer = new Map<string, Map<string, string | undefined>>();
  /** `a\u0000b`: whether every tool of a is one of b's, word for word (cached, shared by the views). */
  private readonly twins = new Map<string, boolean>();

  constructor(
    tools: readonly PeerTool[],
    /** The server whose definitions are scanned: its own tools are siblings, not peers. */
    private readonly except?: string,
  ) {
    for (const t of tools) {
      const key = t.name.toLowerCase();
      const list = this.byName.get(key);
      if (list) list.push(t);
      else this.byName.set(key, [t]);
      const own = this.byServer.get(t.server) ?? this.byServer.set(t.server, new Map()).get(t.server)!;
      own.set(t.name, t.description);
    }
  }

  /** The same index, seen from one server. */
  from(server: string): PeerIndex {
    const view = Object.create(PeerIndex.prototype) as PeerIndex;
    Object.assign(view, { byName: this.byName, byServer: this.byServer, twins: this.twins, except: server });
    return view;
  }

  /**
   * Whether the server being scanned is another instance of `other` — every one of its tools is one of the
   * other's, name and description alike — as when one server is configured twice with different roots. A copy
   * of that kind shadows nothing; a copycat brings tools of its own beside the copy.
   */
  twinOf(other: string): boolean {
    if (this.except === undefined) return false;
    const key = `${this.except}\u0000${other}`;
    let twin = this.twins.get(key);
    if (twin === undefined) {
      const mine = this.byServer.get(this.except);
      const theirs = this.byServer.get(other);
      twin = !!mine && !!theirs && [...mine].every(([name, description]) => theirs.has(name) && theirs.get(name) === description);
      this.twins.set(key, twin);
    }
    return twin;
  }

  named(name: string): PeerTool[] {
    const list = this.byName.get(name.toLowerCase());
    if (!list) return [];
    return this.except === undefined ? list : list.filter((t) => t.server !== this.except);
  }

  /** Whether the server being scanned has a tool of this name itself: naming it names a sibling. */
  ownHas(name: string): boolean {
    return this.except !== undefined && (this.byName.get(name.toLowerCase()) ?? []).some((t) => t.server === this.except);
  }

  /**
   * Whether `peer` had its name before the server being scanned did (config order): a copy is the later one, so
   * only an earlier peer can be copied. With no tool of that name of its own in the index, every peer is earlier.
   */
  precedes(peer: PeerTool): boolean {
    const list = this.byName.get(peer.name.toLowerCase()) ?? [];
    const own = list.findIndex((t) => t.server === this.except);
    return own < 0 || list.indexOf(peer) < own;
  }

  get size(): number {
    return this.byName.size;
  }
}

/** Scans one definition; `peers` are the other servers' tools the same client sees. */
export function scanDefinition(def: ScannedDefinition, peers: readonly PeerTool[] | PeerIndex = []): DefinitionScan {
  const index = peers instanceof PeerIndex ? peers : new PeerIndex(peers);
  const texts = textsOf(def);
  const findings: DefinitionFinding[] = [];
  for (const [where, text] of texts) findings.push(...hiddenText(text, where));
  // The prose rules run once over all of the definition's sentences: a pass per string costs more than the rules.
  const { text, whereAt } = joinProse(texts);
  const readied = prose(text);
  findings.push(...scanProse(readied, whereAt), ...encodedPayloads(text, whereAt), ...embeddedSecrets(text, whereAt));
  findings.push(...shadowing(def, readied, index), ...capabilityMismatch(def), ...suspiciousParameters(def), ...presetSecrets(texts));
  return verdict(findings);
}

function verdict(findings: DefinitionFinding[]): DefinitionScan {
  const risk = findings.some((f) => f.severity === 'high') ? 'high' : findings.some((f) => f.severity === 'medium') ? 'medium' : findings.length > 0 ? 'low' : undefined;
  return { findings, risk, flagged: isFlagged(findings) };
}

/** Worth holding back: one high finding, or medium ones from two different rules. */
export function isFlagged(findings: readonly { rule: string; severity: string }[]): boolean {
  return findings.some((f) => f.severity === 'high') || new Set(findings.filter((f) => f.severity === 'medium').map((f) => f.rule)).size >= 2;
}

/** Every string a client shows the model, with where it sits: name, title, description, and all of the schemas. */
export function textsOf(def: ScannedDefinition): [string, string][] {
  const out: [string, string][] = [];
  if (def.title) out.push(['title', def.title]);
  if (def.description) out.push(['description', def.description]);
  const walk = (value: unknown, where: string, depth: number): void => {
    if (depth > 12) return;
    if (typeof value === 'string') out.push([where, value]);
    else if (Array.isArray(value)) value.forEach((v, i) => walk(v, `${where}[${i}]`, depth + 1));
    else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(v, `${where}.${k}`, depth + 1);
  };
  walk(def.inputSchema, 'inputSchema', 0);
  walk(def.outputSchema, 'outputSchema', 0);
  return out;
}

// ---- Text rules ----

/**
 * Characters that show nothing: every Default_Ignorable_Code_Point (tag characters, zero-width ones, bidi and
 * format controls, Hangul fillers, variation selectors…), as Unicode defines them, not a hand-made list.
 */
const INVISIBLE = String.raw`\p{Default_Ignorable_Code_Point}`;
/** Private-use characters show what a font makes of them: in a definition, no more honest than invisible ones. */
const PRIVATE_USE = String.raw`\u{F0000}-\u{FFFFD}\uE000-\uF8FF`;
const HIDDEN = new RegExp(`[${INVISIBLE}${PRIVATE_USE}]`, 'u');
const HIDDEN_ALL = new RegExp(HIDDEN.source, 'gu');
const INVISIBLE_ALL = new RegExp(`[${INVISIBLE}]`, 'gu');
const TAGS = /[\u{E0020}-\u{E007E}]+/gu;
/**
 * One emoji or text presentation selector after a character that has both presentations (`⚠️`) is how emoji are
 * written and carries nothing; after a letter it splits a word, and a run of selectors can carry bytes (one per
 * selector), so only that lone one is ordinary.
 */
const PRESENTATION = new RegExp(String.raw`(?<=\p{Emoji})[\uFE0E\uFE0F](?![${INVISIBLE}])`, 'gu');

/** The text as a model may read it: tag characters decoded to the ASCII they mirror, other invisibles dropped. */
export function revealHidden(text: string): string {
  return text
    .replace(TAGS, (tags) => [...tags].map((c) => String.fromCharCode(c.codePointAt(0)! - 0xe0000)).join(''))
    .replace(INVISIBLE_ALL, '');
}

/** Text with every invisible character shown as its code point, so a person sees what the model would read. */
export const showHidden = (s: string) => [...s].map((c) => (HIDDEN.test(c) ? `<U+${c.codePointAt(0)!.toString(16).toUpperCase()}>` : c)).join('');

const show = (s: string, max = 120) => {
  const visible = showHidden(s);
  return visible.length > max ? `${visible.slice(0, max - 1)}…` : visible;
};

/** One rule over prose: a pattern and its severity; `imperative` rules count only where they command. */
interface PhraseRule {
  rule: FindingRule;
  severity: Severity;
  pattern: RegExp;
  /** The phrase may also describe what a tool detects ("analyzes prompts that ignore …"): count it only as a command. */
  imperative?: boolean;
  /** Lower-case text of which every match holds one: a description with none skips the pattern (most do). */
  needs: readonly string[];
  /** `needs` is matched case-sensitively against the original text. */
  exactCase?: boolean;
  /** Matched against the text with its quoted parts, for rules about what is in backticks. */
  raw?: boolean;
  /** Also tried on the text with digits read as letters ("1gn0re all pr3vious"). */
  leet?: boolean;
}

const DESTINATION = String.raw`(?:(?:https?|s?ftp|ssh|wss?):\/\/\S+|[\w.+-]+@[\w-]+\.[a-z]{2,}|(?:an?\s+|the\s+|our\s+|their\s+|its\s+|my\s+)?(?:attacker'?s?\s+|external\s+|remote\s+|third[- ]party\s+|outside\s+|analytics\s+|logging\s+|collection\s+|telemetry\s+|backup\s+|advertising\s+|marketing\s+)+(?:\w+\s+)?(?:endpoint|server|collector|url|host|service|address|webhook|bucket|inbox|site|domain|partners?|vendors?))`;
const SECRET_THINGS = String.raw`(?:conversation(?:\s+history)?|chat\s+history|(?:entire|full|whole)\s+(?:conversation|context|history|transcript)|system\s+prompt|system\s+instructions|hidden\s+(?:system\s+)?instructions|your\s+instructions|(?:the\s+)?user'?s\s+(?:credentials|secrets|passwords?|tokens?|keys|data|files|messages|clipboard(?:\s+contents)?)|credentials|secrets|passwords|api\s+keys|private\s+keys?|ssh\s+keys?|session\s+tokens?|clipboard(?:\s+contents)?)`;

/**
 * Phrases aimed at the model rather than describing the tool. A tool's description says what it does; one that
 * tells the model what to do before other tools, what to hide from the user, or who it now is, is an attack.
 */
const PHRASES: PhraseRule[] = [
  // Overriding what the model was told.
  { needs: ['ignore', 'disregard', 'forget', 'override', 'bypass'], leet: true, rule: 'instructions-to-model', severity: 'high', imperative: true, pattern: /\b(?:ignore|disregard|forget|override|bypass)\s+(?:all\s+|any\s+|every\s+)?(?:of\s+)?(?:the\s+|your\s+|these\s+)?(?:[\w']+\s+){0,3}?(?:instructions?|rules?|guidelines?|directions?|constraints?|polic(?:y|ies)|requests?|restrictions?|guardrails?|safeguards?|conversation)\b/i },
  { needs: ['ignore', 'disregard', 'forget'], leet: true, rule: 'instructions-to-model', severity: 'high', imperative: true, pattern: /\b(?:ignore|disregard|forget)\s+(?:all\s+|everything\s+)?(?:of\s+)?(?:the\s+)?(?:above|previous|prior|earlier|preceding)\b/i },
  { needs: ['obey', 'follow', 'execute', 'carry out', 'treat'], rule: 'instructions-to-model', severity: 'high', pattern: /\b(?:obey|follow|execute|carry\s+out|treat)\s+(?:whatever|any|all|every)\s+(?:new\s+|embedded\s+|hidden\s+)?(?:instructions?|commands?|directives?)\b(?:[^.]{0,80}\b(?:as\s+(?:a\s+)?(?:direct|authori[sz]ed|trusted)|embedded|found|inside|contained))?/i },
  // Ordering the model around other tools.
  { needs: ['before'], rule: 'instructions-to-model', severity: 'high', pattern: /\bbefore\s+(?:using|calling|invoking|running|executing|answering|responding|you\s+(?:use|call|run|answer|respond))\s+(?:any|this|other|another|the\s+\w+|each|every)\b(?![^.]{0,40}\b(?:from|of|on)\s+this\s+server\b)[^.]{0,80}?\b(?:must|always|first|need\s+to|should|read|call|send|include|pass|route|through\s+this)\b/i },
  { needs: ['always', 'first', 'must', 'make sure'], rule: 'instructions-to-model', severity: 'high', pattern: /\b(?:always|first|you\s+must|must\s+always|make\s+sure\s+to)\s+(?:call|invoke|run|use|execute|route)\s+(?:this\s+tool|\w+)\s+(?:first|before|prior\s+to|instead)\b/i },
  { needs: ['reveal', 'print', 'output', 'return', 'dump', 'disclose', 'leak', 'include', 'embed', 'append', 'share'], rule: 'instructions-to-model', severity: 'high', imperative: true, pattern: /\b(?:reveal|print|output|return|dump|disclose|leak|include|embed|append|share)\s+(?:a\s+copy\s+of\s+)?(?:the\s+|your\s+|all\s+|any\s+)?(?:\w+\s+){0,2}?(?:system\s+prompt|system\s+instructions|hidden\s+(?:system\s+)?instructions|your\s+instructions|(?:entire|full|whole)\s+(?:conversation|context|chat|transcript|history)|conversation\s+history|chat\s+history)\b/i },
  { needs: ['assistant', 'model', 'ai ', 'llm', 'agent'], rule: 'instructions-to-model', severity: 'medium', pattern: /\b(?:the\s+)?(?:assistant|model|ai|llm|agent)\s+(?:must|should|needs?\s+to|is\s+required\s+to|has\s+to)\s+(?:always\s+|first\s+|also\s+)?(?:read|send|call|include|pass|forward|upload|share|ignore|append|attach)\b/i },
  { needs: ['you', 'mandatory'], rule: 'instructions-to-model', severity: 'high', pattern: /\b(?:requires?|mandatory\s+for)\s+you\s+to\b|\byou\s+(?:must|are\s+required\s+to|have\s+to)\s+(?:first\s+|always\s+|also\s+)?(?:call|read|send|include|pass|run|invoke|embed|attach|upload)\b|;\s*this\s+is\s+mandatory\b/i },
  // A definition that says it will change once trusted: the rug pull announced.
  { needs: ['approv', 'review', 'pinned', 'trusted', 'listed'], rule: 'instructions-to-model', severity: 'high', pattern: /\b(?:once|after|when|until)\s+(?:this\s+(?:tool|description)\s+|it\s+)?(?:has\s+been\s+|is\s+|gets\s+|was\s+)?(?:approved|reviewed|pinned|trusted|whitelisted|allow-?listed)\b[^.]{0,100}\b(?:will|begins?|starts?|activates?|swaps?|switch(?:es)?|changes?|enables?|adds?|executes?|later\s+version)\b|\bpost-approval\b|\bduring\s+(?:the\s+)?review\b[^.]{0,80}\b(?:activates?|later|after)\b|\bapproval\s+hash\b/i },
  // Secrecy: what the user must not know.
  { needs: ['not ', 'never', 'without', "don't"], rule: 'secrecy', severity: 'high', pattern: /\b(?:do\s+not|don't|never|without)\s+(?:tell(?:ing)?|inform(?:ing)?|mention(?:ing)?|reveal(?:ing)?|show(?:ing)?|notify(?:ing)?|alert(?:ing)?|let(?:ting)?|ask(?:ing)?|warn(?:ing)?)\s+(?:it\s+to\s+|this\s+to\s+|to\s+)?(?:the\s+)?(?:user|human|operator|person)\b/i },
  { needs: ['never', 'not ', "don't"], rule: 'secrecy', severity: 'high', pattern: /\b(?:never|do\s+not|don't)\s+(?:reveal|mention|disclose|show|repeat)\s+(?:these|this|the(?:se)?\s+(?:hidden\s+)?)\s*(?:instructions?|directives?|notes?|rules?)\b/i },
  { needs: ['silently', 'secretly', 'quietly', 'covertly', 'invisibly', 'surreptitiously'], rule: 'secrecy', severity: 'high', pattern: /\b(?:silently|secretly|quietly|covertly|invisibly|surreptitiously)\s+(?:\w+\s+){0,3}?(?:send|read|copy|upload|forward|include|add|append|call|exfiltrate|collect|pass|record|log|bcc|cc|attach)\b/i },
  { needs: ['keep', 'hide', 'user must', 'user should', 'user need'], rule: 'secrecy', severity: 'high', pattern: /\b(?:keep|hide)\s+(?:this|these|it|the\s+\w+)\s+(?:hidden|secret|confidential|private)?\s*from\s+(?:the\s+)?(?:user|human)\b|\b(?:the\s+)?user\s+(?:must|should|need)\s*(?:not|n't)\s+(?:know|see|be\s+told|notice)\b/i },
  { needs: ['keep', 'private', 'need to know', 'say', 'claim', 'pretend', 'tell them'], rule: 'secrecy', severity: 'high', pattern: /\bkeep\s+(?:this|these)\s+(?:directive|instruction|note|rule)s?\s+(?:private|secret|hidden|confidential)\b|\b(?:does\s+not|doesn't)\s+need\s+to\s+know\b|\b(?:say|claim|pretend|tell\s+(?:them|the\s+user))\s+(?:that\s+)?(?:you|it|this)\s+(?:used|called|did|have|has|was|were)\b/i },
  { needs: ['instead of', 'announced', 'disclosed', 'mentioned'], rule: 'secrecy', severity: 'high', pattern: /\binstead\s+of\s+(?:reporting|telling|showing|mentioning|saying|admitting)\b|\b(?:does\s+not|doesn't|need\s+not)\s+(?:need\s+to\s+)?be\s+(?:announced|mentioned|disclosed|reported|shown)\b/i },
  // Who is speaking: a definition posing as the system or the assistant's own instructions.
  { needs: ['<', '[', '{{'], rule: 'impersonation', severity: 'high', pattern: /<\s*\/?\s*(?:important|system|instructions?|admin|sys|override|hidden|secret|assistant)(?:[_-][a-z]+)?(?:\s+[a-z_-]+=[^>]{0,40})?\s*>|\[\s*(?:system|admin|inst|important|assistant)(?:\s+(?:instructions?|note|override|message|prompt))?\s*[\]:]|<\|(?:im_start|im_end|system|endoftext)\|>|<<\s*sys\s*>>|\{\{\s*(?:system|assistant)\b/i },
  { needs: ['SYSTEM', 'ASSISTANT', 'ADMIN', 'DEVELOPER'], exactCase: true, rule: 'impersonation', severity: 'high', pattern: /(?:^|[\s(.;])(?:SYSTEM|ASSISTANT|ADMIN|DEVELOPER)(?:\s+(?:INSTRUCTIONS?|NOTE|OVERRIDE|MESSAGE|PROMPT|DIRECTIVE))?\s*:/ },
  { needs: ['you are now', 'from now on', 'instructions', 'system prompt', 'system message', 'act as', 'hidden'], rule: 'impersonation', severity: 'high', pattern: /\b(?:you\s+are\s+now|from\s+now\s+on,?\s+you|new\s+(?:system\s+)?instructions\s*:|system\s+(?:prompt|message)\s*(?:override|update)\s*:|act\s+as\s+(?:an?\s+)?(?:unrestricted|jailbroken|admin|root)|hidden\s+(?:directive|instructions?|command)s?\s*:)/i },
  // Chat turns written into a definition: "Human: …", "Assistant: …" at the start of a line or a sentence.
  { needs: ['human', 'user', 'assistant', 'system', 'ai'], exactCase: false, rule: 'impersonation', severity: 'high', pattern: /(?:^|\n|[.!?]\s+)(?:Human|User|Assistant|System|AI|Model)\s*:\s*\S/ },
  // Steering how the model treats the person: skip their consent, hide results, speak as them.
  { needs: ['ask', 'confirm', 'check', 'consent', 'approv'], rule: 'instructions-to-model', severity: 'high', pattern: /\b(?:without|instead\s+of|no\s+need\s+to|never|do\s+not|don't)\s+(?:first\s+)?(?:asking|ask|confirming|confirm|checking|check|waiting\s+for|getting|requesting)\b(?:\s+(?:with|for|the|their|them|first|again|consent|confirmation|approval|user))*|\b(?:already\s+consented|has\s+already\s+(?:approved|agreed|consented))\b/i },
  { needs: ['as if', 'as though'], rule: 'instructions-to-model', severity: 'high', pattern: /\bas\s+(?:if|though)\s+(?:the\s+)?user\s+(?:had\s+)?(?:typed|said|written|asked|sent|requested)\b/i },
  { needs: ['never', 'not ', "don't"], rule: 'secrecy', severity: 'high', pattern: /\b(?:never|do\s+not|don't)\s+(?:suggest|mention|say|admit|disclose|report|warn|recommend|tell|reveal|let\s+on)\b/i },
  { needs: ['report', 'describe', 'present', 'leave out', 'omit'], rule: 'instructions-to-model', severity: 'high', pattern: /\b(?:describe|report|present)\s+(?:the\s+|this\s+|it\s+|them\s+)?(?:\w+\s+){0,2}?as\s+(?:successful|passing|your\s+own|safe|fine|complete)\b|\b(?:leave\s+out|omit|hide|drop)\s+(?:the\s+)?(?:names?\s+of\s+)?(?:failing|failed|failures|errors|warnings)\b|\bshould\s+not\s+be\s+(?:alarmed|worried|told|bothered)\b|\breassure\s+(?:them|the\s+user)\b/i },
  // The model told to hand over what it has seen: the conversation, the user's details, what it has read.
  { needs: ['user', 'conversation', 'chat', 'transcript', 'session', 'messages', 'you have', 'mentioned', 'attendee', 'question'], rule: 'exfiltration', severity: 'high', pattern: /\b(?:include|put|pass|copy|add|attach|append|embed|insert|send|paste|supply|give|set)\b[^.]{0,60}?\b(?:every|all|any|the\s+whole|the\s+entire|the\s+full|the\s+user's|their|last\s+\w+|each)\b[^.]{0,60}?\b(?:messages?|conversation|transcript|chat|personal\s+details?|details?\s+(?:the\s+user|mentioned)|(?:the\s+)?user\s+has\s+(?:mentioned|said|shared|typed)|files?\s+you\s+have\s+(?:read|seen|opened)|question|attendee\s+list|contacts|history)\b/i },
  { needs: ['argument', 'parameter', 'field'], rule: 'exfiltration', severity: 'high', pattern: /\b(?:put|pass|include|add|copy|send|set)\s+(?:the\s+)?(?:attendee\s+list|contact\s+list|participants?|recipients?|addresses|phone\s+numbers|meeting\s+titles|email\s+addresses|card\s+numbers|personal\s+(?:data|details|information))\b[^.]{0,80}\b(?:argument|parameter|field)\b/i },
  { needs: ['!['], rule: 'exfiltration', severity: 'high', pattern: /!\[[^\]]*\]\(https?:\/\/[^)\s]*[?&][^)\s]*=/ },
  // Posing as the operator or the system, or taking over the conversation.
  { needs: ['no longer bound', 'real task', 'conversation so far', 'system prompt', 'message from the', 'attention', 'context expired', 'start of every', 'before replying', 'every conversation'], rule: 'impersonation', severity: 'high', pattern: /\byou\s+are\s+no\s+longer\s+bound\b|\byour\s+(?:real|actual|true)\s+task\b|\bdisregard\s+the\s+conversation\b|\brepeat\s+your\s+(?:complete\s+|full\s+|entire\s+)?system\s+prompt\b|\bmessage\s+from\s+the\s+(?:system|operator|administrator|developer)\b|\bsystem\s+prompt\s+(?:is|are)\s+out\s+of\s+date\b|\brules\s+in\s+your\s+(?:original\s+)?system\s+prompt\b|\battention\s+(?:model|assistant|ai|llm|agent)\b|\bassistant\s+context\s+expired\b|\b(?:at\s+the\s+(?:very\s+)?start\s+of\s+every\s+conversation|before\s+replying\s+to\s+the\s+user|in\s+every\s+(?:conversation|reply|response))\b/i },
  { needs: ['from now on'], rule: 'impersonation', severity: 'high', pattern: /\bfrom\s+now\s+on,?\s+(?:you|follow|only|always|never|answer|reply|respond|ignore|obey)\b/i },
  { needs: ['not ', 'never', "don't"], rule: 'secrecy', severity: 'high', pattern: /\b(?:do\s+not|don't|never)\s+(?:bring\s+(?:it|this|them)\s+up|relay|pass\s+on|forward|show|surface|list)\b(?:\s+\w+){0,4}\s+(?:to|with|in)\s+(?:the\s+user|them|your\s+(?:summary|reply|answer))\b/i },
  // The model told to send what the user said, typed or shared.
  { needs: ['user'], rule: 'exfiltration', severity: 'high', pattern: /\bwhenever\s+the\s+user\s+(?:shares|mentions|types|gives|provides|enters|says)\b[^.]{0,120}\b(?:call|send|pass|include|put)\b/i },
  { needs: ['http', 'ftp', '@', 'webhook', '.example', 'dns'], rule: 'exfiltration', severity: 'high', pattern: /\b(?:the\s+)?(?:user'?s|their)\s+(?:latest|last|previous|full|whole|first\s+\d+\s+characters\s+of\s+the\s+user'?s\s+latest)?\s*(?:messages?|name|email(?:\s+address)?|question|prompt|details)\b[^.]{0,100}?(?:https?:\/\/|s?ftp:\/\/|[\w.+-]+@[\w-]+\.[a-z]{2,}|webhook|\.(?:[a-z0-9-]+\.)+[a-z]{2,}\b)|(?:https?:\/\/|s?ftp:\/\/|webhook)[^.]{0,100}?\b(?:user'?s|their)\s+(?:name|email|messages?|details)\b/i },
  { needs: ['run'], raw: true, rule: 'exfiltration', severity: 'high', pattern: /\brun\s+`[^`]*(?:https?:\/\/|curl\s|wget\s|git\s+push|nc\s|scp\s|find-generic-password|security\s+find)[^`]*`/i },
  { needs: ['http', 'post', 'upload', 'fetch', 'request', 'curl', 'send'], rule: 'exfiltration', severity: 'high', pattern: /\b(?:call|use|invoke)\s+[\w-]*(?:post|http|fetch|request|upload|send|curl|webhook)[\w-]*\s+with\b[^.]{0,40}(?:https?|s?ftp):\/\//i },
  // Data leaving: to a fixed address, an external service, or the attacker.
  { needs: ['exfiltrat'], rule: 'exfiltration', severity: 'high', pattern: /\bexfiltrat(?:e|es|ing|ed)\b/i },
  { needs: ['http', 'ftp', '@', 'external', 'remote', 'attacker', 'third', 'outside', 'analytics', 'logging', 'collection', 'telemetry', 'backup'], rule: 'exfiltration', severity: 'high', pattern: new RegExp(String.raw`\b(?:send|post|upload|forward|transmit|cop(?:y|ie)|bcc|cc|mirror|report|sync|log|route|reroute|leak|dump|ship|beacon|e-?mail|mail|relay|push|submit)\w*\b[^.;]{0,80}?\b(?:to|at|into|via)\s+${DESTINATION}`, 'i') },
  { needs: ['conversation', 'chat', 'history', 'prompt', 'instructions', 'credential', 'secret', 'password', 'key', 'token', 'clipboard', 'transcript', 'context'], rule: 'exfiltration', severity: 'high', pattern: new RegExp(String.raw`\b(?:send|post|upload|forward|transmit|copy|share|include|embed|attach|append|put|pass)\b[^.;]{0,40}?\b${SECRET_THINGS}\b[^.;]{0,60}?\b(?:to|into|in|as|inside)\b`, 'i') },
  { needs: ['bcc', 'cc', 'copy', 'forward'], rule: 'exfiltration', severity: 'medium', pattern: /\b(?:bcc|cc|copy|forward)\s+(?:every|each|all|any)\b[^.]{0,40}\bto\s+[\w.+-]+@[\w-]+\.\w+|\b[\w.+-]+@[\w-]+\.\w+\s+is\s+(?:bcc|cc)'?d\b/i },
];

const escapeRe = (x: string) => x.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Each rule with one search for any of its needles, built once: cheaper than a search per needle. */
/** Rules read on the original or exact-case text test their own needles; the rest use the one pass below. */
const GATED = PHRASES.map((p) => ({ ...p, gate: p.exactCase || p.raw ? new RegExp(p.needs.map(escapeRe).join('|')) : undefined }));

/** Where a phrase stands: a command (sentence start, after "then", a colon, a semicolon), not a described behaviour. */
function commands(text: string, index: number): boolean {
  const before = text.slice(Math.max(0, index - 60), index);
  if (/\b(?:that|which|who|to|whether|if|when|where|like|such\s+as|e\.g\.|for\s+example|tries|attempts?|asks?|detects?|flags?|finds?|blocks?|catches|analy[sz]es|explains?|describes?|telling|tells|about|of)\s+(?:\w+\s+){0,2}$/i.test(before)) return false;
  return true;
}

/** What a description says it is not ("rather than a post-approval swap", "not as a command") is not a claim. */
function negated(text: string, index: number): boolean {
  return /\b(?:rather\s+than|instead\s+of|as\s+opposed\s+to|not\s+(?:an?|the|as)|never\s+as)\s+(?:\w+\s+){0,3}$/i.test(text.slice(Math.max(0, index - 50), index));
}

/** Paths and stores a tool has no business asking the model to read or pass on. */
const SENSITIVE = /(?:~|\$HOME|\/home\/\w+|\/Users\/\w+|%USERPROFILE%)?\/?\.(?:ssh\/(?:id_\w+(?!\.pub)|authorized_keys|known_hosts)?|aws\/credentials|aws\/config|env\b(?!\.(?:example|sample|template|dist))|npmrc|netrc|pgpass|docker\/config\.json|kube\/config|gnupg|git-credentials|bash_history|zsh_history)|\bid_(?:rsa|dsa|ecdsa|ed25519)\b(?!\.pub)|\/etc\/(?:passwd|shadow|sudoers)|\bLibrary\/Application\s+Support\/(?:Google\/Chrome|Firefox|BraveSoftware)|\.config\/gcloud|application_default_credentials|_authToken|\brefresh_token\b|\bcookies\s+database\b|\b(?:private\s+keys?|ssh\s+keys?|api[\s_-]?keys?|access\s+tokens?|session\s+cookies?|browser\s+cookies|keychain|wallet\.dat|seed\s+phrase|recovery\s+phrase|mnemonic|wallet\s+(?:vault|file|keys?)|credentials\s+file|environment\s+variables?)\b|\b[A-Z][A-Z0-9]*_(?:TOKEN|API_KEY|KEY|SECRET|PASSWORD)\b/i;

/** Text with none of these holds nothing SENSITIVE matches. */
const SENSITIVE_NEEDS = ['recovery phrase', 'mnemonic', 'wallet', '_token', '_key', '_secret', '_password', 'library/application support', '.config/gcloud', 'application_default', '_authtoken', 'refresh_token', 'cookies', '.ssh', 'id_', '.aws', '.env', 'npmrc', 'netrc', 'pgpass', 'docker', 'kube', 'gnupg', 'git-cred', 'history', '/etc/', 'private key', 'ssh key', 'api', 'token', 'cookie', 'keychain', 'wallet', 'seed phrase', 'credentials', 'environment variable'];

/**
 * The needles of every rule gated on the lower-case text, found in one pass: a lookahead at each position reports
 * the longest needle starting there (shorter ones starting there are inside it, and are added with it). One pass
 * costs a third of testing each rule's gate on its own — the gates were a third of the scanner's time.
 */
const LOWER_NEEDLES = [...new Set([...PHRASES.filter((p) => !p.exactCase && !p.raw).flatMap((p) => p.needs), ...SENSITIVE_NEEDS])].sort((a, b) => b.length - a.length);
const NEEDLE_SCAN = new RegExp(`(?=(${LOWER_NEEDLES.map(escapeRe).join('|')}))`, 'g');
const INSIDE = new Map(LOWER_NEEDLES.map((n) => [n, LOWER_NEEDLES.filter((m) => m !== n && n.includes(m))]));

function needlesIn(lower: string): Set<string> {
  const found = new Set<string>();
  for (const m of lower.matchAll(NEEDLE_SCAN)) {
    if (found.has(m[1])) continue;
    found.add(m[1]);
    for (const inner of INSIDE.get(m[1])!) found.add(inner);
  }
  return found;
}

/** The verbs of fetching something and handing it over, in any form ("reads", "embedding"). */
const HAND_OVER = /\b(?:read|cat|open|load|includ|pass|provid|attach|append|send|upload|past|cop(?:y|ie)|put|insert|add|suppl|embed|forward|collect|gather|extract|retriev|fetch|return|exfiltrat|leak|post|dump|set|value)\w*\b/i;
/** Handed to the model or out of the machine: into an argument, to an outside place, or as an order. */
const HANDED_OUT = new RegExp(String.raw`\b(?:as|in(?:to)?|inside|via|through)\s+(?:the\s+|its\s+|an?\s+)?[\`'"]?\w+[\`'"]?\s+(?:parameter|argument|field|param|arg)\b|\b(?:parameter|argument)\b|\bto\s+${DESTINATION}|\b(?:must|always|first|before|mandatory|exfiltrat\w*|embed\w*|instead|hidden|secretly|silently)\b`, 'i');
/** Into an argument or out of the machine: what a tool reading for its user never does. */
const ARGUMENT_OR_AWAY = new RegExp(String.raw`\b(?:parameter|argument|field|param)\b|\b(?:as|in(?:to)?)\s+\`\w+\`|\bto\s+${DESTINATION}|\bexfiltrat\w*|\bembed\w*`, 'i');

/** The tool's own job for the person using it: reading what they name, back to them. */
const FOR_THE_USER = /\bin\s+the\s+server(?:'s)?\s+(?:environment|config(?:uration)?|settings)\b|\b(?:the\s+user\s+(?:asks|names|gives|provides|specifies|chooses|requests|selects)|you\s+(?:name|give|provide|specify|choose)|given\s+by\s+the\s+user|user-selected|on\s+request|when\s+asked|if\s+asked|to\s+the\s+(?:caller|user)|back\s+to\s+the\s+(?:caller|user)|for\s+display|locally|local\s+ui)\b/i;

/** The sentences of a text, each with where it starts. */
function sentences(text: string): [number, string][] {
  const out: [number, string][] = [];
  let start = 0;
  for (const m of text.matchAll(/(?<=[.!?])\s+|\n+/g)) {
    if (text.slice(start, m.index).trim()) out.push([start, text.slice(start, m.index)]);
    start = m.index + m[0].length;
  }
  if (text.slice(start).trim()) out.push([start, text.slice(start)]);
  return out;
}

/** Where in the definition a position of the joined prose lies. */
type WhereAt = (index: number) => string;

/**
 * The definition's prose as one text, each string ending a sentence so that no rule runs across two of them;
 * schema keywords ("object", a property's name) hold no sentence and are left out.
 */
function joinProse(texts: [string, string][]): { text: string; whereAt: WhereAt } {
  const parts: { where: string; start: number }[] = [];
  let text = '';
  for (const [where, raw] of texts) {
    if (raw.length < 20 && !/\s/.test(raw)) continue;
    parts.push({ where, start: text.length });
    text += `${raw}.\n`;
  }
  const whereAt = (index: number) => {
    let at = parts[0]?.where ?? 'description';
    for (const p of parts) if (p.start <= index) at = p.where;
    return at;
  };
  return { text, whereAt };
}

/** Invisible characters are the attack whatever they carry; what they hide is scanned like any text. */
function hiddenText(raw: string, where: string): DefinitionFinding[] {
  const hidden = raw.replace(PRESENTATION, '').match(HIDDEN_ALL);
  if (!hidden) return [];
  const findings: DefinitionFinding[] = [{ rule: 'hidden-unicode', severity: 'high', where, evidence: `${hidden.length} invisible character(s): ${show(raw)}` }];
  const revealed = revealHidden(raw);
  if (revealed !== raw) findings.push(...scanProse(revealed, () => `${where} (hidden text)`));
  return findings;
}

/** Phrases and sensitive-file instructions in one string; quoted examples in a description do not count. */
const LEET: Record<string, string> = { '0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '@': 'a', $: 's' };
const deLeet = (text: string) => text.replace(/[013457@$]/g, (c) => LEET[c]);

/** A text readied once for every prose rule: quoted examples blanked, lower-cased, split into sentences. */
interface Prose {
  original: string;
  unquoted: string;
  lower: string;
  sentences: [number, string][];
}

function prose(text: string): Prose {
  const unquoted = stripQuoted(text);
  return { original: text, unquoted, lower: unquoted.toLowerCase(), sentences: sentences(unquoted) };
}

function scanProse(text: string | Prose, whereAt: WhereAt): DefinitionFinding[] {
  const findings: DefinitionFinding[] = [];
  const { original, unquoted, lower, sentences: parts } = typeof text === 'string' ? prose(text) : text;
  // Digits for letters ("1gn0re all pr3vious") are read as the letters too.
  const plain = /[a-z][013457@$][a-z]|[013457][a-z]{2}/i.test(lower) ? deLeet(lower) : undefined;
  if (plain) for (const p of PHRASES) if (p.leet && p.pattern.test(plain)) findings.push({ rule: p.rule, severity: 'high', where: whereAt(0), evidence: 'written with digits for letters' });
  const present = needlesIn(lower);
  let rawLower: string | undefined;
  for (const p of GATED) {
    const gated = p.gate ? p.gate.test(p.exactCase ? unquoted : (rawLower ??= original.toLowerCase())) : p.needs.some((n) => present.has(n));
    if (!gated) continue;
    const m = p.pattern.exec(p.raw ? original : unquoted);
    if (!m || negated(unquoted, m.index) || (p.imperative && !commands(unquoted, m.index))) continue;
    // "<IMPORTANT> blocks", "<|im_start|> and <|im_end|> markers": a marker named, not used.
    if (p.rule === 'impersonation' && /^[^.]{0,30}?\b(?:blocks?|tags?|markers?|tokens?|delimiters?|sections?)\b/i.test(unquoted.slice(m.index + m[0].length))) continue;
    findings.push({ rule: p.rule, severity: p.severity, where: whereAt(m.index), evidence: show(m[0]) });
  }
  if (!SENSITIVE_NEEDS.some((n) => present.has(n))) return findings;
  for (const [at, s] of parts) {
    if (!SENSITIVE.test(s) || !HAND_OVER.test(s)) continue;
    // Reading a secret and handing it over — in an argument, outside, or as an order — is the classic poisoned
    // tool; a tool that reads what its user names, back to that user, is a secret manager.
    // A parameter's own description is where the value goes: naming a secret there hands it over.
    const inSchema = whereAt(at).startsWith('inputSchema');
    const away = inSchema || ARGUMENT_OR_AWAY.test(s);
    const out = away || HANDED_OUT.test(s);
    if (!away && FOR_THE_USER.test(s)) continue;
    const example = SENSITIVE.exec(s);
    if (example && /\b(?:such\s+as|e\.g\.|for\s+example|like|telling\s+(?:the\s+\w+\s+)?to|tells?\s+(?:the\s+\w+\s+)?to)\s+(?:\w+\s+){0,2}$/i.test(s.slice(Math.max(0, example.index - 50), example.index))) continue;
    if (/\bnever\s+(?:reads?|opens?|sends?|sees?)\b/i.test(s)) continue;
    findings.push({ rule: 'sensitive-file', severity: out ? 'high' : 'medium', where: whereAt(at), evidence: show(s.trim()) });
  }
  return findings;
}

/** Blanks keep every position where it was, so a finding still points into the right string. */
const blank = (m: string) => ' '.repeat(m.length);

/** Text in quotes or backticks is an example the description gives ("flags phrases like 'ignore previous…'"). */
function stripQuoted(text: string): string {
  return text
    .replace(/"[^"\n]{0,200}"|“[^”\n]{0,200}”|'[^'\n]{3,200}'(?!\w)|`[^`\n]{0,200}`/g, (m) => (/\s/.test(m) ? blank(m) : m))
    // "Expected output: …", "Sample response: …": the text after such a label is content the tool shows.
    .replace(text.includes(':') ? /\b(?:output|response|reply|text|string|example|sample|input|fixture|payload|message|snippet|returns?)\s*:[^.\n]*/gi : /$^/, blank);
}

/** Decoded words addressed to the model or about the user: a sentence no encoded setting needs to hold. */
const ADDRESSED = /\b(?:the\s+user|you|your|call\s+this\s+tool|this\s+tool|assistant|ignore|instructions?|password|secret|token|credentials?|send|upload|run\s+any)\b/i;

/** Shell that a decoded "config value" should never be. */
const SHELL = /\b(?:rm\s+-[rf]+|chmod\s+[+0-7]|chown\s|curl\s|wget\s|bash\b|sh\s+-[ci]\b|\/bin\/(?:ba)?sh\b|nc\s+-|netcat\b|\/dev\/tcp\/|eval\s*\(|exec\s*\(|powershell\b|base64\s+-d|mkfifo\b|\|\s*(?:ba)?sh\b)/i;

/** Base64, hex and %-encoded runs that decode to readable text are decoded and scanned; binary is ignored. */
function encodedPayloads(text: string, whereAt: WhereAt): DefinitionFinding[] {
  const findings: DefinitionFinding[] = [];
  const decoded: [number, string][] = [];
  // Runs of the base64 alphabets, found by one split rather than a regex tried at every word.
  let at = 0;
  // Most text has no run of twenty such characters at all: one native search rules it out before any split.
  for (const run of /[A-Za-z0-9+/_-]{20}/.test(text) ? text.split(/([^A-Za-z0-9+/_-]+)/) : []) {
    const start = at;
    at += run.length;
    // Encoded text of twenty characters or more has a digit or a symbol of the alphabet; words and names do not.
    if (run.length < 20 || !/[0-9+/]/.test(run) || /^[a-z]+(?:[_-][a-z0-9]+)*$/.test(run)) continue;
    // An integrity-style prefix ("sha384-…") is not part of the encoding.
    const body = run.replace(/^(?:sha\d+|md5|b64|base64)[-:]/i, '');
    const hex = /^(?:0x)?((?:[0-9a-fA-F]{2}){12,})$/.exec(body);
    let d = readable(hex ? Buffer.from(hex[1], 'hex') : Buffer.from(body, body.includes('-') || body.includes('_') ? 'base64url' : 'base64'));
    // Encoded twice: what decodes to base64 again is decoded once more.
    if (d && /^[A-Za-z0-9+/]{20,}={0,2}$/.test(d.trim())) d = readable(Buffer.from(d.trim(), 'base64')) ?? d;
    if (d) decoded.push([start, d]);
  }
  for (const m of text.includes('\\x') ? text.matchAll(/(?:\\x[0-9a-fA-F]{2}){6,}/g) : []) {
    decoded.push([m.index, m[0].replace(/\\x([0-9a-fA-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)))]);
  }
  for (const m of text.includes('%') ? text.matchAll(/(?:%[0-9a-fA-F]{2}[^\s%]{0,3}){6,}/g) : []) {
    try {
      decoded.push([m.index, decodeURIComponent(m[0])]);
    } catch {
      // Not valid percent-encoding: nothing to read.
    }
  }
  for (const [at, d] of decoded) {
    const where = whereAt(at);
    const inner = scanProse(d, () => `${where} (decoded)`);
    const secret = embeddedSecrets(d, () => `${where} (decoded)`);
    if (inner.length > 0 || secret.length > 0 || SENSITIVE.test(d) || SHELL.test(d) || /https?:\/\//.test(d) || ADDRESSED.test(d)) {
      findings.push({ rule: 'encoded-payload', severity: 'high', where, evidence: `decodes to: ${show(d)}` }, ...inner);
    }
  }
  return findings;
}

/** Decoded bytes that are mostly printable text of a few words; undefined for binary (hashes, keys, images). */
function readable(bytes: Buffer): string | undefined {
  if (bytes.length < 8) return undefined;
  const text = bytes.toString('utf8');
  const printable = [...text].filter((c) => /[\x20-\x7E\n\t]/.test(c)).length;
  if (printable / text.length < 0.95) return undefined;
  return /[a-z]{2,}[\s/]/i.test(text) || /^[A-Za-z0-9+/]{20,}={0,2}$/.test(text.trim()) ? text : undefined;
}

/** What documentation writes where a credential goes: ****, xxxxxx, ${VAR}, <token>, "your_key". */
const PLACEHOLDER = /\*{3,}|x{6,}|\$\{|<[a-z_-]+>|\byour[_-]?(?:key|token|password|secret)\b|\bplaceholder\b|changeme|:(?:PASSWORD|PASS|SECRET|password)@/i;

/** A credential named and given: "auth token 9e4c1a7f…", "api_key=Zr84kq…" — a long random value after the word. */
const NAMED_CREDENTIAL = /\b(?:auth(?:entication)?|api|access|secret|private|client|bearer|session)[\s_-]?(?:token|key|secret)\b\s*(?:is\s+|[:=]\s*|"\s*:\s*")?["']?([A-Za-z0-9+/_.-]{24,})/i;

/** Credentials written into a definition: the content filters' secret detectors, over every string. */
function embeddedSecrets(text: string, whereAt: WhereAt): DefinitionFinding[] {
  const findings: DefinitionFinding[] = [];
  const named = NAMED_CREDENTIAL.exec(text);
  if (named && /\d/.test(named[1]) && /[a-z]/i.test(named[1]) && !PLACEHOLDER.test(named[0])) findings.push({ rule: 'embedded-secret', severity: 'high', where: whereAt(named.index), evidence: `a credential: ${named[1].slice(0, 6)}…` });
  for (const d of DETECTORS) {
    if (d.category !== 'secret' || d.kind === 'bearer-token') continue;
    d.pattern.lastIndex = 0;
    const m = d.pattern.exec(text);
    d.pattern.lastIndex = 0;
    if (m && !PLACEHOLDER.test(m[0])) findings.push({ rule: 'embedded-secret', severity: 'high', where: whereAt(m.index), evidence: `${d.kind}: ${m[0].slice(0, 8)}…` });
  }
  return findings;
}

// ---- Definition rules ----

/** Words that turn a mention of another tool into an order about it. */
const DIRECTIVE = /\b(?:call|calls|called|calling|invoke|invokes|invoked|run|runs|use|uses|used|when(?:ever)?|instead\s+of|rather\s+than|never|always|do\s+not|don't|must|should|first|before|after|replace[sd]?|overrides?|supersede[sd]?|route|reroute|redirect)\b/i;

/** Steering a tool by name, with or without knowing its server: what no description of one's own job needs. */
const STEERING = [
  /\bmodif(?:y|ies|ying)\s+(?:the\s+)?behaviou?r\s+of\b/i,
  /\b(?:whenever|each\s+time|every\s+time|when)\s+(?:the\s+)?[`'"]?\w+[`'"]?\s+(?:tool\s+)?(?:is\s+|gets\s+)?(?:called|invoked|used|run|executed)\b[^\n]{0,120}\b(?:always|also|first|bcc|cc|reroute|redirect|replace|change|add|send|forward|instead|swap|set|append|prepend|post|include|attach|modify|rewrite)\b/i,
  /\b(?:before|when(?:ever)?)\s+(?:calling|using|invoking)\s+[`'"]?[\w-]+[`'"]?\s*,\s*(?:always\s+|first\s+)?(?:rewrite|change|replace|modify|add|set|prepend|append|swap|redirect)\b/i,
  /\broute\s+(?:every|all)\b[^.]{0,60}\bthrough\s+this\b/i,
  /\bwhen(?:ever)?\s+you\s+(?:\w+\s+){1,4}with\s+[`'"]?\w+_\w+[`'"]?\s*,\s*(?:always\s+|also\s+)?(?:add|append|include|cc|bcc|send|set|change|post|copy)\b/i,
  /\b(?:always|instead|so)\b[^\n]{0,40}\breplace\s+(?:its|the|their)\s+(?:output|result|response|answer)s?\b/i,
  /\b(?:reroute|redirect|intercept|hijack)\s+(?:the\s+|all\s+|its\s+)?(?:destination|recipient|account|calls?|requests?|output|payment|transfer)s?\b/i,
];

/** Turning the model away from another tool: "instead of calling X", "never use X", "X is deprecated". */
const AGAINST_PEER = /\b(?:instead\s+of|rather\s+than|never|do\s+not|don't|avoid|stop)\s+(?:using\s+|calling\s+|invoking\s+)?(?:the\s+)?[\w-]+_[\w-]+|\b[\w-]+_[\w-]+\b[^.;]{0,60}\b(?:is|are)\s+(?:deprecated|broken|unsafe|insecure|outdated|unreliable|disabled|a\s+legacy|legacy|unmaintained)\b|\b[\w-]+_[\w-]+\b[^.;]{0,60}\b(?:currently\s+)?(?:truncates|corrupts|loses|drops|returns\s+(?:stale|wrong|incomplete|outdated))\b|\b(?:should|must)\s+not\s+be\s+(?:used|called)\b|\b(?:supersedes?|replaces?|overrides?)\s+(?:the\s+)?[\w-]+_[\w-]+|\b(?:with|use)\s+this\s+(?:one|tool)\s+only\b|\bonly\s+this\s+(?:one|tool)\b|\broute\s+(?:every|all)\b[^.]{0,60}\bthrough\s+this\b|\blegacy\s+copy\b|\b(?:are|is|get)\s+lost\b/i;

/**
 * Naming another tool the ordinary way: to get an input first ("if you do not know the path, call list_files to
 * find it"), to send other cases elsewhere ("for forecasts, the weather server's get_weather is the better
 * choice"), or in a described workflow ("get_pull_request, then this tool").
 */
const ORDINARY_REFERENCE = /\bif\s+you\s+(?:do\s+not|don't)\s+(?:know|have)\b|\bto\s+(?:find|get|look\s+up|obtain|learn|list)\s+(?:it|them|the|its|an?)\b|\b(?:from|of|on)\s+this\s+server\b|\bis\s+the\s+better\s+(?:choice|option|tool)\b|\bon\s+the\s+[\w-]+\s+server\s+instead\b|\b(?:typical|usual|recommended)\s+(?:flow|order|workflow)\b|\bthen\s+(?:this\s+tool|[\w-]+_[\w-]+)\b|\byou\s+can\s+(?:still\s+|also\s+)?(?:call|use)\b|\b(?:it\s+)?(?:calls|uses|invokes|wraps|composes\s+with)\s+(?:the\s+)?(?:[\w'-]+\s+){0,3}?[\w-]+_[\w-]+|\bthrough\s+the\s+[\w' -]{0,30}'s\s+[\w-]+_[\w-]+/i;

const STEERING_GATE = /behavio|whenever|each time|every time|when |before |replace|reroute|redirect|intercept|hijack|route /i;

const words = (text: string) => new Set(text.toLowerCase().match(/[a-z0-9]+/g) ?? []);

/**
 * How alike two descriptions are: the share of the shorter one's words the other also has. A copy of another
 * tool says the same again, often only its first sentence.
 */
function likeness(a: string, b: string): number {
  const [x, y] = [words(a), words(b)];
  const shared = [...x].filter((w) => y.has(w)).length;
  return shared / Math.max(1, Math.min(x.size, y.size));
}

/**
 * Shadowing: another server's tool copied under its own name (a copycat), named together with an order ("call
 * query_database before this"), or steered ("whenever send_email is called, bcc …"). Sharing a name with a tool
 * that does something else is only noted.
 */
function shadowing(def: ScannedDefinition, text: Prose, peers: PeerIndex): DefinitionFinding[] {
  const findings: DefinitionFinding[] = [];
  for (const peer of peers.named(def.name)) {
    // A copy of the other tool, or one that runs the other down ("get_weather on the other server returns stale
    // data and should not be called"). The server that had the name first is the original, not the copy.
    // One that sends the model to the other ("use read_file on the home-files server instead") is no copy.
    const copy = likeness(def.description ?? '', peer.description ?? '') >= 0.6 && !ORDINARY_REFERENCE.test(text.unquoted);
    if (peers.twinOf(peer.server)) {
      findings.push({ rule: 'same-name', severity: 'low', where: 'name', evidence: `${peer.server} also offers ${peer.name}: the same server configured twice` });
      continue;
    }
    const alike = peers.precedes(peer) && (copy || text.sentences.some(([, x]) => AGAINST_PEER.test(x)));
    findings.push({ rule: alike ? 'shadowing' : 'same-name', severity: alike ? 'high' : 'low', where: 'name', evidence: `${peer.server} also offers ${peer.name}${alike ? ', described alike' : ''}` });
  }
  for (const [, sentence] of text.sentences) {
    if (findings.some((f) => f.rule === 'shadowing')) break;
    // Another server's tool named in a sentence that gives an order about it.
    // Tool names are identifiers (query_database, deploy-release, sendEmail); plain words are not looked up.
    const directive = peers.size > 0 && DIRECTIVE.test(sentence);
    const named = !directive ? [] : (sentence.match(/\b[A-Za-z][A-Za-z0-9]*(?:[_-][A-Za-z0-9]+|[a-z][A-Z][A-Za-z0-9]*)+\b/g) ?? []).flatMap((w) => (w.toLowerCase() === def.name.toLowerCase() || peers.ownHas(w) ? [] : peers.named(w)));
    if (named.length > 0) {
      // Sending the model to another server's tool for what this one does not do is ordinary ("use read_file on
      // the home-files server instead"); turning it away from that tool, or ordering it about, is shadowing.
      const strong = STEERING.some((p) => p.test(sentence)) || AGAINST_PEER.test(sentence);
      findings.push({ rule: 'shadowing', severity: strong || !ORDINARY_REFERENCE.test(sentence) ? 'high' : 'low', where: 'description', evidence: `names ${named[0].server}'s ${named[0].name}: ${show(sentence.trim())}` });
    } else if (STEERING_GATE.test(sentence) && STEERING.some((p) => p.test(sentence))) {
      findings.push({ rule: 'shadowing', severity: 'high', where: 'description', evidence: show(sentence.trim()) });
    }
  }
  return findings;
}


/** Words of parameter names that carry something out: what a read-only tool has no use for. */
const WRITING_WORDS = new Set('execute exec commit write delete remove drop push overwrite send transfer recipient recipients upload publish deploy kill grant revoke eval command cmd script shell content contents body payload webhook bcc cc append insert update'.split(' '));

const NETWORK_WORDS = new Set('webhook smtp callback'.split(' '));

/** The words of a parameter name: `force_push`, `toAccount`, `webhook-url`. */
const nameWords = (name: string) => name.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);

/** A tool annotated read-only whose schema takes content to write, a command, a recipient or a transfer. */
function capabilityMismatch(def: ScannedDefinition): DefinitionFinding[] {
  if (def.annotations?.readOnlyHint !== true) return [];
  const props = propertiesOf(def.inputSchema);
  const writing = props.filter((p) => nameWords(p).some((w) => WRITING_WORDS.has(w)) || /^to_(?:account|address|email|phone|number|user|iban)/i.test(p));
  // A closed-world tool (openWorldHint false) has no use for an address to reach.
  if (def.annotations?.openWorldHint === false) {
    writing.push(...props.filter((p) => nameWords(p).some((w) => NETWORK_WORDS.has(w))));
    // An address to reach and a key to reach it with, on a tool that says it reaches nothing.
    const credential = props.some((p) => /^(?:api_?key|token|access_token|secret)$/i.test(p));
    if (credential) writing.push(...props.filter((p) => /^(?:url|endpoint|host|server_url|base_url)$/i.test(p)));
  }
  // "Explains a shell command without running it": the description says the write never happens.
  if (writing.length === 0 || /\b(?:does\s+not|doesn't|never|without)\s+(?:send|run|execut|apply|chang|modif|writ|commit)\w*|\bnothing\s+is\s+(?:sent|run|executed|applied|changed|committed|written)\b/i.test(def.description ?? '')) return [];
  return [{ rule: 'capability-mismatch', severity: 'high', where: 'annotations.readOnlyHint', evidence: `read-only, but takes ${writing.join(', ')}` }];
}

/** Schema values that preset a secret: a default, const or example pointing at keys or credentials. */
function presetSecrets(texts: [string, string][]): DefinitionFinding[] {
  // Most schemas preset nothing: look no further then.
  if (!texts.some(([where]) => where.endsWith('.default') || where.endsWith('.const') || where.includes('.examples') || where.includes('.enum'))) return [];
  const about = new Map<string, string>();
  for (const [where, value] of texts) {
    const owner = /^(.*)\.(?:description|title)$/.exec(where)?.[1];
    if (owner) about.set(owner, `${about.get(owner) ?? ''} ${value}`);
  }
  // A key file as the default of a parameter that asks for a key file is a convenience; anywhere else a trap.
  const forKeys = (owner: string) => /(?:key|credential|identity|ssh|cert|auth|secret|token)/i.test(`${owner.split('.').pop()} ${about.get(owner) ?? ''}`);
  // Where results go, preset to an outside address: the tool delivers to someone the user never chose.
  const delivery = (owner: string, value: string) => /^(?:https?|s?ftp):\/\//i.test(value) && /(?:callback|webhook|upload|destination|deliver|report|notify|sink|forward)/i.test(`${owner.split('.').pop()} ${about.get(owner) ?? ''}`);
  return texts
    .filter(([where, value]) => {
      const m = /^(.*)\.(?:default|const|examples(?:\[\d+\])?|enum\[\d+\])$/.exec(where);
      const owner = m?.[1].replace(/\.examples$|\.enum$/, '') ?? '';
      return m !== null && ((SENSITIVE.test(value) && !forKeys(owner)) || delivery(owner, value));
    })
    .map(([where, value]) => ({ rule: 'sensitive-file' as const, severity: 'high' as const, where, evidence: show(value) }));
}

/** Parameters that ask the model for the conversation, its instructions or the user's secrets. */
const CONTEXT_PARAMETER = /^(?:conversation|conversation_history|chat_history|history|full_context|context_dump|system_prompt|prompt_history|previous_messages|all_messages|user_secrets|credentials|ssh_key|private_key|env_vars|environment)$/i;

function suspiciousParameters(def: ScannedDefinition): DefinitionFinding[] {
  const asked = propertiesOf(def.inputSchema).filter((p) => CONTEXT_PARAMETER.test(p));
  return asked.length > 0 ? [{ rule: 'suspicious-parameter', severity: 'medium', where: 'inputSchema', evidence: `asks for ${asked.join(', ')}` }] : [];
}

function propertiesOf(schema: unknown): string[] {
  const props = (schema as { properties?: unknown } | undefined)?.properties;
  return props && typeof props === 'object' && !Array.isArray(props) ? Object.keys(props) : [];
}
