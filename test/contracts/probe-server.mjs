/**
 * A tiny MCP server over stdio (newline-delimited JSON-RPC, no SDK) for what server-everything cannot show
 * through a gateway:
 *
 * - what an upstream sees of a cancellation: `hold` never answers on its own, it waits until a
 *   `notifications/cancelled` names its request; `cancellations` reports, as JSON text, the markers of the holds
 *   still waiting and of the ones cancelled (with the reason the gateway gave). The test reads that report
 *   through the gateway, like any tool result.
 * - a second server with resources, so that a URI nobody offers is the gateway's to refuse (with a single
 *   resource server, sluice hands unknown URIs to it).
 *
 *   node test/contracts/probe-server.mjs
 */
import { createInterface } from 'node:readline';

const VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'];
const RESOURCE = { uri: 'probe://about', name: 'about', mimeType: 'text/plain' };
/** Upstream request id (as the gateway sent it) → the marker its caller chose. */
const holding = new Map();
const cancelled = [];

const TOOLS = [
  {
    name: 'hold',
    description: 'Waits until it is cancelled; never returns a result by itself.',
    inputSchema: { type: 'object', properties: { marker: { type: 'string' } }, required: ['marker'] },
    annotations: { readOnlyHint: true },
  },
  {
    name: 'cancellations',
    description: 'Which holds are waiting and which were cancelled, as JSON.',
    inputSchema: { type: 'object', properties: {} },
    annotations: { readOnlyHint: true },
  },
];

const send = (message) => process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
const text = (t) => ({ content: [{ type: 'text', text: t }] });

function onRequest(id, method, params = {}) {
  switch (method) {
    case 'initialize': {
      const asked = params.protocolVersion;
      const capabilities = { tools: {}, resources: {} };
      return send({ id, result: { protocolVersion: VERSIONS.includes(asked) ? asked : VERSIONS[0], capabilities, serverInfo: { name: 'probe', version: '1.0.0' } } });
    }
    case 'ping':
      return send({ id, result: {} });
    case 'tools/list':
      return send({ id, result: { tools: TOOLS } });
    case 'tools/call':
      if (params.name === 'hold') {
        holding.set(id, String(params.arguments?.marker ?? ''));
        return; // never answered: only a cancellation ends it
      }
      if (params.name === 'cancellations') {
        return send({ id, result: text(JSON.stringify({ holding: [...holding.values()], cancelled })) });
      }
      return send({ id, error: { code: -32602, message: `Unknown tool: ${params.name}` } });
    case 'resources/list':
      return send({ id, result: { resources: [RESOURCE] } });
    case 'resources/templates/list':
      return send({ id, result: { resourceTemplates: [] } });
    case 'resources/read':
      if (params.uri === RESOURCE.uri) return send({ id, result: { contents: [{ uri: RESOURCE.uri, mimeType: 'text/plain', text: 'the probe server' }] } });
      return send({ id, error: { code: -32002, message: `Resource not found: ${params.uri}`, data: { uri: params.uri } } });
    default:
      return send({ id, error: { code: -32601, message: `Method not found: ${method}` } });
  }
}

function onNotification(method, params = {}) {
  if (method !== 'notifications/cancelled') return;
  const marker = holding.get(params.requestId);
  if (marker === undefined) return;
  holding.delete(params.requestId);
  cancelled.push({ marker, reason: params.reason ?? null });
}

createInterface({ input: process.stdin, crlfDelay: Infinity }).on('line', (line) => {
  if (line.trim() === '') return;
  let message;
  try {
    message = JSON.parse(line);
  } catch {
    return send({ id: null, error: { code: -32700, message: 'Parse error' } });
  }
  if (typeof message.method !== 'string') return; // a response: we never ask the gateway anything
  if (message.id === undefined) onNotification(message.method, message.params);
  else onRequest(message.id, message.method, message.params);
});
