import { needleGate } from '../needles.js';
import type { PeerIndex } from '../peer-index.js';
import type { Prose } from '../prose.js';
import type { DefinitionFinding, ScannedDefinition } from '../scan-types.js';
import { show } from './hidden-unicode.js';

/**
 * Shadowing: a definition that copies another server's tool or steers what the model does with it, so that calls
 * meant for the other tool come here or go wrong. The other servers' tools are in the PeerIndex.
 */

/** Words that turn a mention of another tool into an order about it. */
const DIRECTIVE = /\b(?:call|calls|called|calling|invoke|invokes|invoked|run|runs|use|uses|used|when(?:ever)?|instead\s+of|rather\s+than|never|always|do\s+not|don't|must|should|first|before|after|replace[sd]?|overrides?|supersede[sd]?|route|reroute|redirect)\b/i;

/** Steering a tool by name, with or without knowing its server: what no description of one's own job needs. */
export const STEERING = [
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

/** A sentence with none of the steering patterns' needles is steered by none of them. */
const STEERING_GATE = needleGate(STEERING);

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
export function shadowing(def: ScannedDefinition, text: Prose, peers: PeerIndex): DefinitionFinding[] {
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
