import { createServer } from 'node:http';
const srv = createServer(); await new Promise<void>(r => srv.listen(0, '127.0.0.1', r)); const port = (srv.address() as any).port; srv.close();
try { await fetch(`http://127.0.0.1:${port}/x`); } catch (e: any) { console.log(e.message, e.cause?.code, e.cause?.message); }
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
const c = new Client({ name: 'x', version: '1' });
try { await c.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`))); } catch (e: any) { console.log('mcp down:', e.constructor.name, e.message, e.code, e.cause?.code, e.cause?.cause?.code); }
const s2 = createServer((req, res) => { res.writeHead(401, {'content-type':'application/json','www-authenticate':'Bearer realm="sluice"'}); res.end(JSON.stringify({jsonrpc:'2.0',error:{code:-32001,message:'unauthorized: wrong token'},id:null})); });
await new Promise<void>(r => s2.listen(0, '127.0.0.1', r));
const c2 = new Client({ name: 'x', version: '1' });
try { await c2.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${(s2.address() as any).port}/mcp`))); } catch (e: any) { console.log("401:", e.constructor.name, e.code, JSON.stringify(e.data)); }
s2.close();
