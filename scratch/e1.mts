import { streamText } from 'ai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { createServer } from 'node:http';
const srv = createServer((req, res) => { res.writeHead(500, {'content-type':'application/json','retry-after-ms':'0'}); res.end(JSON.stringify({error:{message:'boom inside', type:'x', code:500}})); });
await new Promise<void>(r => srv.listen(0, '127.0.0.1', r));
const port = (srv.address() as any).port;
for (const url of [`http://127.0.0.1:${port}/v1`, 'http://127.0.0.1:1/v1']) {
  const m = createOpenAICompatible({ name: 'compatible', baseURL: url, apiKey: 'x' }).chatModel('m');
  const r = streamText({ model: m, prompt: 'hi', maxRetries: 1, onError: () => {} });
  for await (const p of r.fullStream) if (p.type === 'error') { const e = p.error as any; console.log(e.constructor.name, e.name, e.reason, Object.keys(e), e.message.slice(0,200)); const l = e.lastError ?? e; console.log(' last', l.name, l.statusCode, l.url, l.isRetryable, String(l.message).slice(0,200), l.cause?.code, l.cause?.cause?.code); }
}
srv.close();
