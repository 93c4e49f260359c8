import type { JSONRPCMessage, MessageExtraInfo, Transport } from '@modelcontextprotocol/client';
import WebSocket from 'ws';
import { deliverText } from './deliver-text.js';
import { frameText } from './ws-frame-text.js';
import { MAX_MESSAGE_BYTES } from './upstream-message.js';

/**
 * MCP over WebSocket (subprotocol `mcp`): one JSON-RPC message per text frame. Like our stdio transport, it
 * parses and passes objects on without re-validating: the reader (our peer, or the SDK Client) checks them.
 */
export class WebSocketClientTransport implements Transport {
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  private socket?: WebSocket;

  constructor(
    private readonly url: string,
    private readonly headers: Record<string, string> = {},
  ) {}

  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      // A frame over the limit closes the connection (1009) rather than being buffered whole.
      const socket = new WebSocket(this.url, 'mcp', { headers: this.headers, maxPayload: MAX_MESSAGE_BYTES });
      this.socket = socket;
      socket.once('open', () => resolve());
      socket.once('error', (err) => {
        reject(err);
        this.onerror?.(err);
      });
      socket.on('close', () => this.onclose?.());
      socket.on('message', (data) => this.onFrame(frameText(data)));
    });
  }

  private onFrame(text: string): void {
    deliverText(text, 'frame', this);
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      if (!this.socket || this.socket.readyState !== WebSocket.OPEN) return reject(new Error('WebSocket is not open'));
      this.socket.send(JSON.stringify(message), (err) => (err ? reject(err) : resolve()));
    });
  }

  async close(): Promise<void> {
    this.socket?.close();
  }
}
