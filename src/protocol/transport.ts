import type { JsonRpcMessage } from './jsonrpc.js';

/**
 * The seam every connection meets: start / send / close plus callbacks. It has the shape of the MCP SDK's
 * Transport, so the SDK's client transports plug in unchanged where we use them.
 */
export interface MessageTransport {
  start(): Promise<void>;
  send(message: JsonRpcMessage): Promise<void>;
  close(): Promise<void>;
  onmessage?: (message: JsonRpcMessage) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  /** Why the connection ended, when the transport knows more than "closed" (exit code, last stderr line). */
  closeReason?: string;
  /** Streamable HTTP only: tells the transport which revision to announce in headers. */
  setProtocolVersion?: (version: string) => void;
}
