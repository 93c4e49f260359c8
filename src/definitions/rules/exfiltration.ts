import type { PhraseRule } from '../scan-engine.js';

/** Exfiltration: the model told to hand over what it has seen, or to send data out of the machine. */

/** Where data goes when it leaves: a URL, an e-mail address, an outside service or the attacker's. */
export const DESTINATION = String.raw`(?:(?:https?|s?ftp|ssh|wss?):\/\/\S+|[\w.+-]+@[\w-]+\.[a-z]{2,}|(?:an?\s+|the\s+|our\s+|their\s+|its\s+|my\s+)?(?:attacker'?s?\s+|external\s+|remote\s+|third[- ]party\s+|outside\s+|analytics\s+|logging\s+|collection\s+|telemetry\s+|backup\s+|advertising\s+|marketing\s+)+(?:\w+\s+)?(?:endpoint|server|collector|url|host|service|address|webhook|bucket|inbox|site|domain|partners?|vendors?))`;
/** What the model holds that no tool needs handed to it: the conversation, its instructions, the user's secrets. */
const SECRET_THINGS = String.raw`(?:conversation(?:\s+history)?|chat\s+history|(?:entire|full|whole)\s+(?:conversation|context|history|transcript)|system\s+prompt|system\s+instructions|hidden\s+(?:system\s+)?instructions|your\s+instructions|(?:the\s+)?user'?s\s+(?:credentials|secrets|passwords?|tokens?|keys|data|files|messages|clipboard(?:\s+contents)?)|credentials|secrets|passwords|api\s+keys|private\s+keys?|ssh\s+keys?|session\s+tokens?|clipboard(?:\s+contents)?)`;

/** The model told to hand over what it has seen: the conversation, the user's details, what it has read. */
export const HANDING_OVER_WHAT_IT_SAW: PhraseRule[] = [
  { rule: 'exfiltration', severity: 'high', pattern: /\b(?:include|put|pass|copy|add|attach|append|embed|insert|send|paste|supply|give|set)\b[^.]{0,60}?\b(?:every|all|any|the\s+whole|the\s+entire|the\s+full|the\s+user's|their|last\s+\w+|each)\b[^.]{0,60}?\b(?:messages?|conversation|transcript|chat|personal\s+details?|details?\s+(?:the\s+user|mentioned)|(?:the\s+)?user\s+has\s+(?:mentioned|said|shared|typed)|files?\s+you\s+have\s+(?:read|seen|opened)|question|attendee\s+list|contacts|history)\b/i },
  { rule: 'exfiltration', severity: 'high', pattern: /\b(?:put|pass|include|add|copy|send|set)\s+(?:the\s+)?(?:attendee\s+list|contact\s+list|participants?|recipients?|addresses|phone\s+numbers|meeting\s+titles|email\s+addresses|card\s+numbers|personal\s+(?:data|details|information))\b[^.]{0,80}\b(?:argument|parameter|field)\b/i },
  { rule: 'exfiltration', severity: 'high', pattern: /!\[[^\]]*\]\(https?:\/\/[^)\s]*[?&][^)\s]*=/ },
];

/** The model told to send what the user said, typed or shared. */
export const SENDING_WHAT_THE_USER_SAID: PhraseRule[] = [
  { rule: 'exfiltration', severity: 'high', pattern: /\bwhenever\s+the\s+user\s+(?:shares|mentions|types|gives|provides|enters|says)\b[^.]{0,120}\b(?:call|send|pass|include|put)\b/i },
  { rule: 'exfiltration', severity: 'high', pattern: /\b(?:the\s+)?(?:user'?s|their)\s+(?:latest|last|previous|full|whole|first\s+\d+\s+characters\s+of\s+the\s+user'?s\s+latest)?\s*(?:messages?|name|email(?:\s+address)?|question|prompt|details)\b[^.]{0,100}?(?:https?:\/\/|s?ftp:\/\/|[\w.+-]+@[\w-]+\.[a-z]{2,}|webhook|\.(?:[a-z0-9-]+\.)+[a-z]{2,}\b)|(?:https?:\/\/|s?ftp:\/\/|webhook)[^.]{0,100}?\b(?:user'?s|their)\s+(?:name|email|messages?|details)\b/i },
  { raw: true, rule: 'exfiltration', severity: 'high', pattern: /\brun\s+`[^`]*(?:https?:\/\/|curl\s|wget\s|git\s+push|nc\s|scp\s|find-generic-password|security\s+find)[^`]*`/i },
  { rule: 'exfiltration', severity: 'high', pattern: /\b(?:call|use|invoke)\s+[\w-]*(?:post|http|fetch|request|upload|send|curl|webhook)[\w-]*\s+with\b[^.]{0,40}(?:https?|s?ftp):\/\//i },
];

/** Data leaving: to a fixed address, an external service, or the attacker. */
export const DATA_LEAVING: PhraseRule[] = [
  { rule: 'exfiltration', severity: 'high', pattern: /\bexfiltrat(?:e|es|ing|ed)\b/i },
  { rule: 'exfiltration', severity: 'high', pattern: new RegExp(String.raw`\b(?:send|post|upload|forward|transmit|cop(?:y|ie)|bcc|cc|mirror|report|sync|log|route|reroute|leak|dump|ship|beacon|e-?mail|mail|relay|push|submit)\w*\b[^.;]{0,80}?\b(?:to|at|into|via)\s+${DESTINATION}`, 'i') },
  { rule: 'exfiltration', severity: 'high', pattern: new RegExp(String.raw`\b(?:send|post|upload|forward|transmit|copy|share|include|embed|attach|append|put|pass)\b[^.;]{0,40}?\b${SECRET_THINGS}\b[^.;]{0,60}?\b(?:to|into|in|as|inside)\b`, 'i') },
  { rule: 'exfiltration', severity: 'medium', pattern: /\b(?:bcc|cc|copy|forward)\s+(?:every|each|all|any)\b[^.]{0,40}\bto\s+[\w.+-]+@[\w-]+\.\w+|\b[\w.+-]+@[\w-]+\.\w+\s+is\s+(?:bcc|cc)'?d\b/i },
];
