import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { postRaw } from '../helpers/clients.js';
import { CLI, EVERYTHING, OPEN_ACCESS, ROOT } from '../helpers/servers.js';
import { runSluice, writeConfig } from '../helpers/sluice-cli.js';
import { freePort } from '../helpers/spawn.js';

/**
 * SIGTERM with every kind of client connected — a WebSocket, a legacy session's SSE stream, and a call in
 * flight over HTTP: the call finishes, the WebSocket is closed with 1001, the stream ends, the audit head is
 * signed, and the process exits promptly (it used to hang while a WebSocket was open).
 */
describe('shutting down on SIGTERM', () => {
  it('finishes calls in flight, closes WebSockets with 1001, ends SSE streams, signs the audit head, and exits', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sluice-shutdown-'));
    const config = writeConfig(dir, `listen: 127.0.0.1:0\nlogLevel: info\ndataDir: ${JSON.stringify(path.join(dir, 'data'))}\nhttp: { shutdownGraceSeconds: 10 }\n${OPEN_ACCESS}mcpServers:\n  everything:\n    command: node\n    args: [${JSON.stringify(EVERYTHING)}, stdio]\n`);
    const port = await freePort();
    const child = spawn(process.execPath, ['--import', 'tsx', CLI, 'serve', '-c', config, '--listen', `127.0.0.1:${port}`], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
    await new Promise<void>((resolve, reject) => {
      let seen = '';
      child.stderr.on('data', (c: Buffer) => ((seen += c.toString()), seen.includes('sluice listening') && resolve()));
      child.once('exit', (code) => reject(new Error(`gateway exited early (${code}): ${seen}`)));
    });
    const url = `http://127.0.0.1:${port}/mcp`;

    // A WebSocket client, initialised.
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`, 'mcp');
    await new Promise((r) => ws.once('open', r));
    const wsClosed = new Promise<number>((r) => ws.once('close', (code) => r(code)));
    ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'ws', version: '1' } } }));
    await new Promise((r) => ws.once('message', r));

    // A legacy session with its GET stream open.
    const init = await postRaw(url, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'sse', version: '1' } } }));
    const session = init.headers.get('mcp-session-id')!;
    const streamEnded = new Promise<void>((resolve) => {
      http.get(url, { headers: { accept: 'text/event-stream', 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' } }, (res) => {
        res.resume();
        res.once('end', () => resolve());
        res.once('close', () => resolve());
      });
    });
    await new Promise((r) => setTimeout(r, 200));

    // A call that takes two seconds, in flight when the signal comes.
    const inFlight = postRaw(url, JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'everything__trigger-long-running-operation', arguments: { duration: 2, steps: 2 } } }), { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' });
    await new Promise((r) => setTimeout(r, 300));
    const signalled = Date.now();
    child.kill('SIGTERM');
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));

    const answer = await inFlight;
    expect(answer.status).toBe(200);
    expect(answer.text).toMatch(/Long running operation completed/);
    expect(await wsClosed).toBe(1001);
    await streamEnded;
    expect(await exited).toBe(0);
    expect(Date.now() - signalled).toBeLessThan(8_000);

    const verify = await runSluice(['audit', 'verify', '-c', config, '--key', path.join(dir, 'data', 'audit-signing-key.pub.pem'), '--strict']);
    expect(verify.stdout).toMatch(/^OK: \d+ records verified, \d+ signed heads valid; 0 records after the last signed head/);
  }, 60_000);
});
