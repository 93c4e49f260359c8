'use strict';
// Preloaded into supergateway (NODE_OPTIONS=--require) because it has no host option and binds every
// interface: rewrites each TCP listen() to 127.0.0.1 so the benchmark never opens a port to the network.
// Unix sockets and listen() calls on an existing handle pass through untouched.
const net = require('node:net');

const listen = net.Server.prototype.listen;

net.Server.prototype.listen = function forceLoopback(...args) {
  const first = args[0];
  if (typeof first === 'number' || (typeof first === 'string' && /^\d+$/.test(first))) {
    const callback = args.find((a) => typeof a === 'function');
    return listen.call(this, { port: Number(first), host: '127.0.0.1' }, callback);
  }
  if (first !== null && typeof first === 'object' && first.path === undefined && first.handle === undefined && first.fd === undefined) {
    args[0] = { ...first, host: '127.0.0.1' };
  }
  return listen.apply(this, args);
};
